//! The plain-HTTP server loop (`--listen`): hyper on the tokio `TcpStream` itself.
//!
//! poem's `Server` wraps every connection in a `BoxIo` (the stream split in two halves behind a
//! lock, each boxed) that does not offer vectored writes, so hyper copies each response body into
//! its write buffer before sending it. Serving the same endpoint from this loop hands hyper the
//! stream as it is: headers and body go out in one `writev`, the cached page uncopied. Requests
//! and responses are poem's (`Request::from` / `http::Response::from`, the conversions poem's own
//! loop uses), so every handler and middleware sees exactly what it saw before. The HTTPS
//! listeners (`--acme-email`, `--tls-cert`) keep poem's server.
//!
//! Headers and a cached page leaving in one `writev`, uncopied, cost about 6-9 % less CPU per public
//! page (`bench/access_log.sh`). HTTP/1.1, and HTTP/2 with prior knowledge, with `TCP_NODELAY` set.
//! On stop the loop closes the listener, lets requests in flight finish (10 s at most) and closes
//! idle connections.

use std::convert::Infallible;
use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use hyper::body::Incoming;
use hyper_util::rt::{TokioExecutor, TokioIo};
use hyper_util::server::conn::auto;
use hyper_util::server::graceful::GracefulShutdown;
use poem::web::{LocalAddr, RemoteAddr};
use poem::{Addr, Endpoint, Request, Response};
use tokio::net::TcpListener;

/// How long the loop waits after `accept` fails (e.g. out of file descriptors) before it tries again.
const ACCEPT_BACKOFF: Duration = Duration::from_millis(50);

/// Serves `endpoint` on `listener` (HTTP/1.1, and HTTP/2 with prior knowledge, at most
/// `http2_max_streams` requests in flight per connection) until `shutdown` resolves; then stops
/// accepting and lets the requests in flight finish, for `grace` at most.
pub async fn serve_plain<E>(
    listener: TcpListener,
    endpoint: E,
    http2_max_streams: u32,
    shutdown: impl Future<Output = ()>,
    grace: Duration,
) -> std::io::Result<()>
where
    E: Endpoint<Output = Response> + 'static,
{
    let endpoint = Arc::new(endpoint);
    let local = LocalAddr(Addr::SocketAddr(listener.local_addr()?));
    let mut builder = auto::Builder::new(TokioExecutor::new());
    builder.http2().max_concurrent_streams(http2_max_streams);
    let graceful = GracefulShutdown::new();
    tokio::pin!(shutdown);
    loop {
        let (stream, peer) = tokio::select! {
            () = &mut shutdown => break,
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                Err(err) => {
                    tracing::warn!(error = %err, "could not accept a connection");
                    tokio::time::sleep(ACCEPT_BACKOFF).await;
                    continue;
                }
            },
        };
        // A response's last partial segment leaves at once instead of waiting (Nagle) for the ACK of the
        // ones before it, which a client may delay by 40 ms; nginx's `tcp_nodelay on` default does the same.
        let _ = stream.set_nodelay(true);
        let remote = RemoteAddr(Addr::SocketAddr(peer));
        let (endpoint, local) = (endpoint.clone(), local.clone());
        let service = hyper::service::service_fn(move |req: http::Request<Incoming>| {
            let endpoint = endpoint.clone();
            let request = Request::from((req, local.clone(), remote.clone(), poem::http::uri::Scheme::HTTP));
            async move { Ok::<_, Infallible>(http::Response::from(endpoint.get_response(request).await)) }
        });
        let connection = graceful.watch(builder.serve_connection(TokioIo::new(stream), service).into_owned());
        tokio::spawn(async move {
            // A connection's end (the peer gone, a malformed request) is routine, not an error of ours.
            if let Err(err) = connection.await {
                tracing::debug!(error = %err, "connection ended");
            }
        });
    }
    drop(listener);
    tokio::select! {
        () = graceful.shutdown() => {}
        () = tokio::time::sleep(grace) => tracing::warn!("requests still in flight after the grace period were cut"),
    }
    Ok(())
}
