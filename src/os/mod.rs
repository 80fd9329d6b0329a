//! What the program asks of the operating system that several layers share: the files a user
//! names (a certificate to upload, a file written whole, a path completed as it is typed) and
//! the signals the dashboard and the long commands race against. Nothing here knows the
//! terminal, the client or the panes.

pub mod files;
pub mod signals;
