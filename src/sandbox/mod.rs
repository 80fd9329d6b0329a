//! The local sandbox: a server that answers the service's v1 interface with its documented rules,
//! on deterministic demo data.

pub mod demo_data;
pub mod reference;
