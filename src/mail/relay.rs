//! The SMTP relay (docs/email.md, "The SMTP relay"): one connection a message (made by
//! `connection.rs`), with a connect timeout and a deadline on the whole exchange, so a relay that
//! hangs never holds the sender for long. Answers are sorted into the queue's outcomes: sent, try
//! again later, refused for good.

use std::time::Duration;

use lettre::Message;

use super::connection::Connector;
use crate::config::MailConfig;

/// The relay's answer to an accepted message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Answer {
    /// Its three-digit code.
    pub code: String,
    /// Its text, lines joined by spaces.
    pub text: String,
}

/// Why a message was not accepted.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SendError {
    /// A 5xx answer about the message or its address: trying again cannot help.
    #[error("{0}")]
    Refused(String),
    /// A 4xx answer, a network error, a timeout, a refused login: try again later.
    #[error("{0}")]
    Later(String),
}

/// The configured relay, shared by the messages sent at once.
pub struct Relay {
    connector: Connector,
    deadline: Duration,
}

impl Relay {
    /// The relay `config` names (TLS is set up here: an error names the flag).
    pub fn new(config: &MailConfig) -> anyhow::Result<Relay> {
        Ok(Relay { connector: Connector::new(config)?, deadline: config.connect_timeout + config.answer_timeout })
    }

    /// Hands `message` to the relay over a new connection: its answer, or why not.
    pub async fn send(&self, message: Message) -> Result<Answer, SendError> {
        let exchange = async {
            let mut connection = self.connector.connect().await?;
            let sent = connection.send(message.envelope(), &message.formatted()).await;
            connection.abort().await;
            sent.map_err(|err| sort_error(&self.connector.name(), &err))
        };
        match tokio::time::timeout(self.deadline, exchange).await {
            Err(_) => Err(SendError::Later(format!(
                "the relay {} did not answer within {} s",
                self.connector.name(),
                self.deadline.as_secs_f32()
            ))),
            Ok(Ok(response)) => {
                Ok(Answer { code: response.code().to_string(), text: response.message().collect::<Vec<_>>().join(" ") })
            }
            Ok(Err(err)) => Err(err),
        }
    }
}

/// Sorts lettre's error from the relay `name`: refused for good on a 5xx answer about the
/// message, else later.
pub(super) fn sort_error(name: &str, err: &lettre::transport::smtp::Error) -> SendError {
    let text = format!("the relay {name}: {err}");
    let code = err.status().map(|code| code.to_string());
    // A refused login (530, 534, 535, 538) is the relay's settings, not the address's.
    let login = matches!(code.as_deref(), Some("530" | "534" | "535" | "538"));
    if err.is_permanent() && !login { SendError::Refused(text) } else { SendError::Later(text) }
}
