//! Messages keyed by the field they are about: what every rule and error reports.

use serde_json::{Map, Value, json};

/// Field-keyed messages, rendered as `{"errors": [{"<field>": "<message>"}, ...]}`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Messages(pub Vec<(String, String)>);

impl Messages {
    /// One message for one field.
    pub fn one(field: impl Into<String>, message: impl Into<String>) -> Messages {
        Messages(vec![(field.into(), message.into())])
    }

    /// Adds a message.
    pub fn push(&mut self, field: impl Into<String>, message: impl Into<String>) {
        self.0.push((field.into(), message.into()));
    }

    /// Whether there is no message.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The JSON error body: `{"errors": [{"<field>": "<message>"}, ...]}`.
    pub fn to_json(&self) -> Value {
        let errors: Vec<Value> = self
            .0
            .iter()
            .map(|(field, message)| {
                let mut entry = Map::new();
                entry.insert(field.clone(), Value::String(message.clone()));
                Value::Object(entry)
            })
            .collect();
        json!({ "errors": errors })
    }
}

impl std::fmt::Display for Messages {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let parts: Vec<String> = self.0.iter().map(|(k, v)| format!("{k}: {v}")).collect();
        f.write_str(&parts.join("; "))
    }
}
