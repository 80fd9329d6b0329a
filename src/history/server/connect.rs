//! Connecting to the team's PostgreSQL server.
