//! A team's history on a `PostgreSQL` server: the connection (URL, password, TLS), the store the
//! history's SQL runs on there, and, for tests, the throwaway server CI starts.

pub mod connect;
pub mod store;
pub mod testing;

#[cfg(test)]
mod grants;
