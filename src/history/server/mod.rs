//! A team's history on a PostgreSQL server: the connection (URL, password, TLS) and, for tests,
//! the throwaway server CI starts.

pub mod connect;
pub mod testing;
