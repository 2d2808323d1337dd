//! A local Slack incoming-webhook stand-in: an HTTP server on 127.0.0.1
//! that records every POST body and answers with a settable status. One
//! thread, one connection at a time; it stops when dropped.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, AtomicU16, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

/// The receiver; its URL goes into the Slack secret.
pub struct SlackReceiver {
    port: u16,
    status: Arc<AtomicU16>,
    bodies: Arc<Mutex<Vec<String>>>,
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl SlackReceiver {
    /// Starts answering 200.
    pub fn start() -> std::io::Result<SlackReceiver> {
        let listener = TcpListener::bind("127.0.0.1:0")?;
        let port = listener.local_addr()?.port();
        let status = Arc::new(AtomicU16::new(200));
        let bodies = Arc::new(Mutex::new(Vec::new()));
        let stop = Arc::new(AtomicBool::new(false));
        let (s, b, st) = (status.clone(), bodies.clone(), stop.clone());
        let thread = std::thread::spawn(move || {
            for conn in listener.incoming() {
                if st.load(Ordering::SeqCst) {
                    break;
                }
                if let Ok(c) = conn {
                    let _ = serve(c, &s, &b);
                }
            }
        });
        Ok(SlackReceiver {
            port,
            status,
            bodies,
            stop,
            thread: Some(thread),
        })
    }

    /// The webhook URL.
    pub fn url(&self) -> String {
        format!("http://127.0.0.1:{}/services/T000/B000/e2e", self.port)
    }

    /// Answers every later request with `status`.
    pub fn answer(&self, status: u16) {
        self.status.store(status, Ordering::SeqCst);
    }

    /// Every body received so far (retries included).
    pub fn bodies(&self) -> Vec<String> {
        self.bodies.lock().map(|b| b.clone()).unwrap_or_default()
    }

    /// Forgets what was received.
    pub fn clear(&self) {
        if let Ok(mut b) = self.bodies.lock() {
            b.clear();
        }
    }
}

fn serve(c: TcpStream, status: &AtomicU16, bodies: &Mutex<Vec<String>>) -> std::io::Result<()> {
    c.set_read_timeout(Some(std::time::Duration::from_secs(5)))?;
    let mut reader = BufReader::new(c.try_clone()?);
    let mut length = 0usize;
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line)? == 0 || line == "\r\n" {
            break;
        }
        if let Some((k, v)) = line.split_once(':') {
            if k.eq_ignore_ascii_case("content-length") {
                length = v.trim().parse().unwrap_or(0);
            }
        }
    }
    let mut body = vec![0; length];
    reader.read_exact(&mut body)?;
    if let Ok(mut b) = bodies.lock() {
        b.push(String::from_utf8_lossy(&body).into_owned());
    }
    let code = status.load(Ordering::SeqCst);
    let text = if code == 200 { "ok" } else { "internal_error" };
    let mut w = c;
    write!(
        w,
        "HTTP/1.1 {code} X\r\ncontent-type: text/plain\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{text}",
        text.len()
    )
}

impl Drop for SlackReceiver {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        // Wake the accept loop so it sees the flag.
        let _ = TcpStream::connect(("127.0.0.1", self.port));
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}
