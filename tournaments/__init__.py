"""Tournaments: admin-run events with entries, rounds, seating and standings."""
