//! The SMTP relay (docs/email.md, "The SMTP relay"): one connection a message through lettre,
//! with a connect timeout and a deadline on the whole exchange, so a relay that hangs never holds
//! the sender for long. Answers are sorted into the queue's outcomes: sent, try again later,
//! refused for good.

use std::time::Duration;

use lettre::transport::smtp::authentication::Credentials;
use lettre::transport::smtp::extension::ClientId;
use lettre::{AsyncSmtpTransport, AsyncTransport, Message, Tokio1Executor};

use crate::config::{MailConfig, Security};

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

/// A connection factory to the configured relay.
#[derive(Clone)]
pub struct Relay {
    transport: AsyncSmtpTransport<Tokio1Executor>,
    deadline: Duration,
    name: String,
}

impl Relay {
    /// The relay `config` names (TLS is set up here: an error names `--smtp-url`).
    pub fn new(config: &MailConfig) -> anyhow::Result<Relay> {
        let relay = &config.relay;
        let builder = match relay.security {
            Security::Plain => AsyncSmtpTransport::<Tokio1Executor>::builder_dangerous(&relay.host),
            Security::StartTls => AsyncSmtpTransport::<Tokio1Executor>::starttls_relay(&relay.host)
                .map_err(|err| anyhow::anyhow!("--smtp-url: cannot set up STARTTLS to {}: {err}", relay.host))?,
            Security::Tls => AsyncSmtpTransport::<Tokio1Executor>::relay(&relay.host)
                .map_err(|err| anyhow::anyhow!("--smtp-url: cannot set up TLS to {}: {err}", relay.host))?,
        };
        let mut builder = builder
            .port(relay.port)
            .timeout(Some(config.connect_timeout))
            .hello_name(ClientId::Domain(config.from_domain().to_owned()));
        if let Some((user, password)) = &relay.credentials {
            builder = builder.credentials(Credentials::new(user.clone(), password.clone()));
        }
        Ok(Relay {
            transport: builder.build(),
            deadline: config.connect_timeout + config.answer_timeout,
            name: format!("{}:{}", relay.host, relay.port),
        })
    }

    /// Hands `message` to the relay: its answer, or why not.
    pub async fn send(&self, message: Message) -> Result<Answer, SendError> {
        match tokio::time::timeout(self.deadline, self.transport.send(message)).await {
            Err(_) => Err(SendError::Later(format!(
                "the relay {} did not answer within {} s",
                self.name,
                self.deadline.as_secs_f32()
            ))),
            Ok(Ok(response)) => {
                Ok(Answer { code: response.code().to_string(), text: response.message().collect::<Vec<_>>().join(" ") })
            }
            Ok(Err(err)) => {
                let text = format!("the relay {}: {err}", self.name);
                let code = err.status().map(|code| code.to_string());
                // A refused login (530, 534, 535, 538) is the relay's settings, not the address's.
                let login = matches!(code.as_deref(), Some("530" | "534" | "535" | "538"));
                if err.is_permanent() && !login { Err(SendError::Refused(text)) } else { Err(SendError::Later(text)) }
            }
        }
    }
}
