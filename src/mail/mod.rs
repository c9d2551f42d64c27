//! Sending mail (issue 30; docs/email.md, "The SMTP relay" and "The mail queue"):
//!
//! - `relay.rs`: the SMTP relay `--smtp-url` names, with timeouts, and its answers sorted;
//! - `connection.rs`: the one place a connection to it is made (TCP_NODELAY, TLS, login);
//! - `message.rs`: one message built from its stored content and queue row;
//! - `sender.rs`: the worker that takes queued rows to the relay and settles them;
//! - here: `quire mail test ADDRESS`.

pub mod connection;
pub mod message;
pub mod relay;
pub mod sender;

use anyhow::{anyhow, bail};

use crate::cli::MailTestArgs;
use crate::config::MailConfig;
use message::Content;
use relay::{Relay, SendError};

/// `quire mail test ADDRESS`: sends one message at once and prints the relay's answer; an error
/// (one line) when the relay refuses it or cannot be reached.
pub fn run_test_command(args: &MailTestArgs) -> anyhow::Result<()> {
    let Some(config) = MailConfig::from_args(&args.mail)? else {
        bail!("no relay to test: give --smtp-url (or QUIRE_SMTP_URL) and --mail-from");
    };
    let content = Content {
        subject: "Quire: a test message".into(),
        text: "This is a test message from Quire (quire mail test). The SMTP relay settings work.\n".into(),
        html: String::new(),
        from_name: String::new(),
        reply_to: String::new(),
    };
    let message_id = format!("test.{:016x}", rand::random::<u64>());
    let message = message::build(&content, args.address.trim(), "", &config.from, &message_id, config.dkim.as_ref())
        .map_err(|err| anyhow!("cannot send to {:?}: {err}", args.address))?;
    let relay = Relay::new(&config)?;
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
    match runtime.block_on(relay.send(message)) {
        Ok(answer) => {
            println!("{} {}", answer.code, answer.text);
            Ok(())
        }
        Err(SendError::Refused(error) | SendError::Later(error)) => bail!("not sent: {error}"),
    }
}
