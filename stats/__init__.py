"""Stats: read models built from finished tables, ratings, and the stats API."""
