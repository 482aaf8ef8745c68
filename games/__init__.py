"""Games: tables, seats and the append-only event log; live play over WebSockets."""
