//! The real board: [`Link`] over the FTDI FT2232H's serial port with the `serialport` crate.

use anyhow::{Context, Result};
use std::io::{Read, Write};
use std::time::{Duration, Instant};
use testbench::board_top::Link;

/// The Alchitry Cu's bridge at 1 000 000 baud (the bitstream's divider).
pub const BAUD: u32 = 1_000_000;

/// A serial port to the board.
pub struct SerialLink {
    port: Box<dyn serialport::SerialPort>,
    path: String,
    baud: u32,
}

impl SerialLink {
    /// Open `path` (e.g. `/dev/ttyUSB1`: the FT2232H's second channel is the UART) at `baud`.
    pub fn open(path: &str, baud: u32) -> Result<SerialLink> {
        let port = serialport::new(path, baud)
            .timeout(Duration::from_millis(20))
            .open()
            .with_context(|| {
                format!(
                    "opening serial port {path}: is the board plugged in, is it the FT2232H's \
                     UART channel (usually the second, /dev/ttyUSB1), and may you open it \
                     (group dialout)?"
                )
            })?;
        Ok(SerialLink {
            port,
            path: path.into(),
            baud,
        })
    }
}

impl Link for SerialLink {
    fn send(&mut self, bytes: &[u8]) -> Result<()> {
        self.port.write_all(bytes)?;
        self.port.flush()?;
        Ok(())
    }

    fn recv(&mut self, max: usize, quiet_bits: u64) -> Result<Vec<u8>> {
        // USB adds latency (the FTDI latency timer, up to 16 ms): never wait less than 100 ms
        let quiet = Duration::from_secs_f64(quiet_bits as f64 / self.baud as f64)
            .max(Duration::from_millis(100));
        let mut got = Vec::new();
        let mut last = Instant::now();
        let mut buf = [0u8; 256];
        while got.len() < max && last.elapsed() < quiet {
            let want = (max - got.len()).min(buf.len());
            match self.port.read(&mut buf[..want]) {
                Ok(0) => {}
                Ok(n) => {
                    got.extend_from_slice(&buf[..n]);
                    last = Instant::now();
                }
                Err(e) if e.kind() == std::io::ErrorKind::TimedOut => {}
                Err(e) => return Err(e).context("reading the serial port"),
            }
        }
        Ok(got)
    }

    fn describe(&self) -> String {
        format!("serial port {} at {} baud", self.path, self.baud)
    }
}
