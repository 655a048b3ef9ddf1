//! The harness's data as typed records, each written and read by one serde derive: what a
//! suite and its workers say to each other ([`protocol`]) and the settings both sides of a
//! comparison share ([`settings`]). A renamed field is a compile error or a failing
//! round-trip test, never a run-time "not a reply".

pub mod protocol;
pub mod settings;

pub use protocol::{Answer, Hello, Opened, Ready, Reply, Request, SlotFigures, PROTOCOL, TAG};
pub use settings::Settings;
