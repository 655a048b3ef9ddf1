//! The harness's data as typed records, each written and read by one serde derive: what a
//! suite and its workers say to each other ([`protocol`]), the settings both sides of a
//! comparison share ([`settings`]), and the JSON document of results and comparisons that
//! runs save and gates read ([`document`]). A renamed field is a compile error or a failing
//! round-trip test, never a run-time "not a reply".

pub mod document;
pub mod protocol;
pub mod settings;

pub use document::{Document, EntryRecord, DOCUMENT_SCHEMA, DOCUMENT_VERSION};
pub use protocol::{Answer, Hello, Opened, Ready, Reply, Request, TurnFigures, PROTOCOL, TAG};
pub use settings::Settings;
