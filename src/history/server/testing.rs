//! The PostgreSQL server tests run against.
