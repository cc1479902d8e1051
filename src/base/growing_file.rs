//! A file written by one thread while another reads it as it grows (issue 47): `gamecert
//! solve` writes a binary refutation while the checker, on the other core, reads and checks
//! what is written so far. Neither holds the file: the writer keeps a buffer of [`CHUNK`]
//! bytes and publishes each as it goes to the file; the reader reads only published bytes
//! and waits for more until the writer finishes (then the file ends) or gives up (then the
//! read fails: a solver that found a model drops its unfinished proof).

use std::fs::File;
use std::io::{Read, Write};
use std::path::Path;
use std::sync::{Arc, Condvar, Mutex};

/// The writer's buffer: published to the reader each time it fills.
pub const CHUNK: usize = 1 << 20;

/// What the writer has published.
#[derive(Default)]
struct State {
    /// Bytes in the file the reader may read.
    published: u64,
    /// `Some(true)` once the writer finished, `Some(false)` once it gave up.
    closed: Option<bool>,
}

#[derive(Default)]
struct Shared {
    state: Mutex<State>,
    changed: Condvar,
}

impl Shared {
    fn update(&self, change: impl FnOnce(&mut State)) {
        change(&mut self.state.lock().unwrap_or_else(|e| e.into_inner()));
        self.changed.notify_all();
    }
}

/// Creates (truncates) `path` for a writer and a reader.
pub fn create(path: &Path) -> std::io::Result<(GrowingWriter, GrowingReader)> {
    let file = File::create(path)?;
    let read = File::open(path)?;
    let shared = Arc::new(Shared::default());
    let writer = GrowingWriter {
        file,
        buffer: Vec::with_capacity(CHUNK),
        written: 0,
        shared: Arc::clone(&shared),
        finished: false,
    };
    Ok((writer, GrowingReader { file: read, read: 0, shared }))
}

/// The writing end; dropped unfinished, it gives up (the reader's next read fails).
pub struct GrowingWriter {
    file: File,
    buffer: Vec<u8>,
    /// Bytes written to the file.
    written: u64,
    shared: Arc<Shared>,
    finished: bool,
}

impl GrowingWriter {
    /// Writes what is buffered and publishes it.
    fn publish(&mut self) -> std::io::Result<()> {
        self.file.write_all(&self.buffer)?;
        self.written += self.buffer.len() as u64;
        self.buffer.clear();
        let written = self.written;
        self.shared.update(|state| state.published = written);
        Ok(())
    }

    /// Writes the rest, ends the file for the reader and returns its length.
    pub fn finish(mut self) -> std::io::Result<u64> {
        self.publish()?;
        self.file.flush()?;
        self.finished = true;
        self.shared.update(|state| state.closed = Some(true));
        Ok(self.written)
    }

    /// Bytes written so far, buffered ones included.
    pub fn len(&self) -> u64 {
        self.written + self.buffer.len() as u64
    }

    /// Whether nothing was written yet.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

impl Write for GrowingWriter {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.buffer.extend_from_slice(bytes);
        if self.buffer.len() >= CHUNK {
            self.publish()?;
        }
        Ok(bytes.len())
    }

    /// Publishes what is buffered (the file is not ended).
    fn flush(&mut self) -> std::io::Result<()> {
        self.publish()
    }
}

impl Drop for GrowingWriter {
    fn drop(&mut self) {
        if !self.finished {
            self.shared.update(|state| state.closed = Some(false));
        }
    }
}

/// The reading end: reads published bytes, waits for more, ends when the writer finished.
pub struct GrowingReader {
    file: File,
    /// Bytes read so far.
    read: u64,
    shared: Arc<Shared>,
}

impl Read for GrowingReader {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if buf.is_empty() {
            return Ok(0);
        }
        let available = {
            let mut state = self.shared.state.lock().unwrap_or_else(|e| e.into_inner());
            loop {
                if state.published > self.read {
                    break state.published - self.read;
                }
                match state.closed {
                    Some(true) => return Ok(0),
                    Some(false) => {
                        return Err(std::io::Error::other("the writer gave the file up"))
                    }
                    None => {
                        state = self.shared.changed.wait(state).unwrap_or_else(|e| e.into_inner())
                    }
                }
            }
        };
        let most = buf.len().min(usize::try_from(available).unwrap_or(usize::MAX));
        let n = self.file.read(&mut buf[..most])?;
        self.read += n as u64;
        Ok(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The reader sees every byte written, in order, across chunks, and the end once the
    /// writer finishes; a writer dropped unfinished makes the reader fail.
    #[test]
    fn the_reader_follows_the_writer() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("f");
        let (mut writer, mut reader) = create(&path).unwrap();
        let data: Vec<u8> = (0..3 * CHUNK + 17).map(|i| (i % 251) as u8).collect();
        let reading = std::thread::spawn(move || {
            let mut got = Vec::new();
            reader.read_to_end(&mut got).map(|_| got)
        });
        for piece in data.chunks(1000) {
            writer.write_all(piece).unwrap();
        }
        assert_eq!(writer.finish().unwrap(), data.len() as u64);
        assert_eq!(reading.join().unwrap().unwrap(), data);

        let (mut writer, mut reader) = create(&path).unwrap();
        writer.write_all(b"abc").unwrap();
        writer.flush().unwrap();
        let mut three = [0u8; 3];
        reader.read_exact(&mut three).unwrap();
        assert_eq!(&three, b"abc");
        drop(writer);
        assert!(reader.read(&mut three).is_err());
    }
}
