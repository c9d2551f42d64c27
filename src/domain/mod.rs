//! The bottom layer: Quire's rules and value types, with no SQL, no HTTP and no I/O.
//! Everything else may use it; it uses nothing else of Quire's.

pub mod access;
pub mod blog;
pub mod content;
pub mod duration;
pub mod federation;
pub mod identity;
pub mod indieauth;
pub mod invite_code;
pub mod limits;
pub mod messages;
pub mod net;
pub mod paging;
pub mod paths;
pub mod public_instance;
