//! The board bridge's protocol (SPEC Unit 7; the contract is the module doc of
//! `hdl::board_top`): frame encoding, CRC-16, bit-vector packing, and a model of which replies a
//! burst of bytes gets, used by the host driver and by the bad-frame tests.

/// Sync byte that starts every frame.
pub const SYNC: u8 = 0xA5;
/// Status reply payload length.
pub const STATUS_BYTES: usize = 20;

/// A `u8`-coded enum of the frame protocol: the enum, `ALL` (every variant, in order) and
/// `from_u8` (the variant with that code, if any).
macro_rules! byte_enum {
    ($(#[$m:meta])* $name:ident { $($(#[$vm:meta])* $v:ident = $code:expr,)* }) => {
        $(#[$m])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        #[repr(u8)]
        pub enum $name {
            $($(#[$vm])* $v = $code,)*
        }

        impl $name {
            /// Every variant, in code order.
            pub const ALL: &'static [$name] = &[$($name::$v,)*];
            /// The variant coded `b`, if any.
            pub fn from_u8(b: u8) -> Option<$name> {
                Self::ALL.iter().copied().find(|v| *v as u8 == b)
            }
        }
    };
}

byte_enum!(
    /// Host → board commands.
    Cmd {
        Reset = 0x01,
        Write = 0x02,
        Step = 0x03,
        ReadOut = 0x04,
        Load = 0x05,
        Run = 0x06,
        ReadCap = 0x07,
        Status = 0x08,
    }
);

impl Cmd {
    /// The payload length the command requires.
    pub fn payload_len(self, in_bytes: usize) -> usize {
        match self {
            Cmd::Reset | Cmd::ReadOut | Cmd::Status => 0,
            Cmd::Write | Cmd::Step => in_bytes,
            Cmd::Load => in_bytes + 2,
            Cmd::Run | Cmd::ReadCap => 2,
        }
    }
}

byte_enum!(
    /// Board → host reply types.
    ReplyType {
        Ack = 0x80,
        Nak = 0x81,
        Outputs = 0x82,
        Status = 0x83,
        Capture = 0x84,
    }
);

byte_enum!(
    /// NAK reasons (the first payload byte of a NAK).
    NakReason {
        BadCrc = 1,
        BadLength = 2,
        UnknownCmd = 3,
        Overlong = 4,
        Framing = 5,
        Timeout = 6,
        BadSync = 7,
        BadArg = 8,
        Overrun = 9,
        /// A command the lean bridge does not implement (`LOAD`, `RUN`, `READ_CAP`, `STATUS`).
        Unsupported = 10,
    }
);

/// CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF, no reflection, no final xor).
pub fn crc16(bytes: &[u8]) -> u16 {
    let mut crc: u16 = 0xffff;
    for &b in bytes {
        crc ^= (b as u16) << 8;
        for _ in 0..8 {
            crc = if crc & 0x8000 != 0 {
                (crc << 1) ^ 0x1021
            } else {
                crc << 1
            };
        }
    }
    crc
}

/// One frame: `A5 LEN TYPE PAYLOAD CRC_HI CRC_LO`.
pub fn frame(kind: u8, payload: &[u8]) -> Vec<u8> {
    assert!(payload.len() <= 255, "payload over 255 bytes");
    let mut f = vec![SYNC, payload.len() as u8, kind];
    f.extend_from_slice(payload);
    let crc = crc16(&f[1..]);
    f.extend_from_slice(&crc.to_be_bytes());
    f
}

/// A reply decoded from the wire.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reply {
    pub kind: ReplyType,
    pub payload: Vec<u8>,
}

/// Split a byte stream from the board into replies; every byte must belong to a well-formed
/// frame with a correct CRC.
pub fn parse_replies(mut bytes: &[u8]) -> Result<Vec<Reply>, String> {
    let mut out = Vec::new();
    while !bytes.is_empty() {
        if bytes[0] != SYNC {
            return Err(format!("reply does not start with A5: {bytes:02x?}"));
        }
        if bytes.len() < 5 || bytes.len() < 5 + bytes[1] as usize {
            return Err(format!("truncated reply: {bytes:02x?}"));
        }
        let n = bytes[1] as usize;
        let crc = u16::from_be_bytes([bytes[3 + n], bytes[4 + n]]);
        if crc16(&bytes[1..3 + n]) != crc {
            return Err(format!("reply CRC mismatch: {:02x?}", &bytes[..5 + n]));
        }
        let kind = ReplyType::from_u8(bytes[2])
            .ok_or_else(|| format!("unknown reply type {:02x}", bytes[2]))?;
        out.push(Reply {
            kind,
            payload: bytes[3..3 + n].to_vec(),
        });
        bytes = &bytes[5 + n..];
    }
    Ok(out)
}

/// What the bridge answers to one burst of bytes sent after a quiet line (the host waits for
/// every reply and for quiet between bursts). `Ok(kind)` for a good frame's reply, `Err(reason)`
/// for a NAK. Rules of `hdl::board_top`: a burst not starting with A5 → one BAD_SYNC; LEN over
/// `in_bytes + 2` → one OVERLONG; a burst shorter than its frame → TIMEOUT; then CRC, command,
/// length, argument checks; bytes after a complete frame arrive while the bridge replies → one
/// extra OVERRUN.
pub fn expected_replies(
    burst: &[u8],
    in_bytes: usize,
    depth: usize,
) -> Vec<Result<ReplyType, NakReason>> {
    expected_replies_of(burst, in_bytes, depth, false)
}

/// [`expected_replies`] of the full (`lean = false`) or the lean bridge: the lean one answers a
/// well-formed `LOAD`, `RUN`, `READ_CAP` or `STATUS` frame (good CRC) with `UNSUPPORTED`, before
/// its length is checked; everything else is the same.
pub fn expected_replies_of(
    burst: &[u8],
    in_bytes: usize,
    depth: usize,
    lean: bool,
) -> Vec<Result<ReplyType, NakReason>> {
    let mut out = Vec::new();
    if burst.is_empty() {
        return out;
    }
    if burst[0] != SYNC {
        return vec![Err(NakReason::BadSync)];
    }
    if burst.len() < 2 {
        return vec![Err(NakReason::Timeout)];
    }
    let n = burst[1] as usize;
    if n > in_bytes + 2 {
        return vec![Err(NakReason::Overlong)];
    }
    if burst.len() < 5 + n {
        return vec![Err(NakReason::Timeout)];
    }
    let crc = u16::from_be_bytes([burst[3 + n], burst[4 + n]]);
    let payload = &burst[3..3 + n];
    let word = |p: &[u8]| -> usize {
        if p.len() >= 2 {
            u16::from_le_bytes([p[0], p[1]]) as usize
        } else {
            0
        }
    };
    out.push(if crc16(&burst[1..3 + n]) != crc {
        Err(NakReason::BadCrc)
    } else {
        match Cmd::from_u8(burst[2]) {
            None => Err(NakReason::UnknownCmd),
            Some(Cmd::Load | Cmd::Run | Cmd::ReadCap | Cmd::Status) if lean => {
                Err(NakReason::Unsupported)
            }
            Some(c) if c.payload_len(in_bytes) != n => Err(NakReason::BadLength),
            Some(Cmd::Load) if word(payload) >= depth => Err(NakReason::BadArg),
            Some(Cmd::Run) if word(payload) == 0 || word(payload) > depth => Err(NakReason::BadArg),
            Some(Cmd::ReadCap) if word(payload) >= depth => Err(NakReason::BadArg),
            Some(Cmd::Reset | Cmd::Write | Cmd::Load | Cmd::Run) => Ok(ReplyType::Ack),
            Some(Cmd::Step | Cmd::ReadOut) => Ok(ReplyType::Outputs),
            Some(Cmd::ReadCap) => Ok(ReplyType::Capture),
            Some(Cmd::Status) => Ok(ReplyType::Status),
        }
    });
    if burst.len() > 5 + n {
        out.push(Err(NakReason::Overrun));
    }
    out
}

/// Pack one value per port (widths in order, first port at bit 0) into `ceil(total/8)` bytes,
/// little-endian. Values are cut to their port width.
pub fn pack(widths: &[usize], values: &[u128]) -> Vec<u8> {
    assert_eq!(widths.len(), values.len(), "one value per port");
    let total: usize = widths.iter().sum();
    let mut bytes = vec![0u8; total.div_ceil(8)];
    let mut pos = 0;
    for (&w, &v) in widths.iter().zip(values) {
        for b in 0..w {
            if (v >> b) & 1 == 1 {
                bytes[(pos + b) / 8] |= 1 << ((pos + b) % 8);
            }
        }
        pos += w;
    }
    bytes
}

/// The inverse of [`pack`].
pub fn unpack(widths: &[usize], bytes: &[u8]) -> Vec<u128> {
    let mut pos = 0;
    widths
        .iter()
        .map(|&w| {
            let mut v = 0u128;
            for b in 0..w {
                let bit = pos + b;
                if bytes
                    .get(bit / 8)
                    .is_some_and(|x| (x >> (bit % 8)) & 1 == 1)
                {
                    v |= 1 << b;
                }
            }
            pos += w;
            v
        })
        .collect()
}

/// The STATUS reply, decoded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Status {
    /// Enabled unit cycles since the button (steps, RUN cycles, RESET cycles).
    pub cycles: u32,
    /// Good frames, including the STATUS frame itself.
    pub good: u16,
    pub naks: u16,
    pub framing_errors: u16,
    pub last_nak: u8,
    pub stim_aw: u8,
    pub in_bits: u16,
    pub out_bits: u16,
    pub unit_id: u32,
}

impl Status {
    pub fn decode(p: &[u8]) -> Result<Status, String> {
        if p.len() != STATUS_BYTES {
            return Err(format!("status payload of {} bytes", p.len()));
        }
        let u16at = |i: usize| u16::from_le_bytes([p[i], p[i + 1]]);
        let u32at = |i: usize| u32::from_le_bytes([p[i], p[i + 1], p[i + 2], p[i + 3]]);
        Ok(Status {
            cycles: u32at(0),
            good: u16at(4),
            naks: u16at(6),
            framing_errors: u16at(8),
            last_nak: p[10],
            stim_aw: p[11],
            in_bits: u16at(12),
            out_bits: u16at(14),
            unit_id: u32at(16),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The CRC catalogue's check value of CRC-16/CCITT-FALSE.
    #[test]
    fn crc_check_value() {
        assert_eq!(crc16(b"123456789"), 0x29b1);
    }

    #[test]
    fn pack_roundtrip() {
        let w = [1, 3, 16, 8, 45];
        let v = [1, 5, 0xbeef, 0x80, (1u128 << 44) | 7];
        let b = pack(&w, &v);
        assert_eq!(b.len(), 10);
        assert_eq!(unpack(&w, &b), v.to_vec());
        assert_eq!(b[0] & 0x0f, 0b1011, "first port at bit 0");
    }

    #[test]
    fn lean_bridge_naks_what_it_lacks() {
        let lean = |b: &[u8]| expected_replies_of(b, 6, 256, true);
        for (cmd, n) in [
            (Cmd::Load, 8),
            (Cmd::Run, 2),
            (Cmd::ReadCap, 2),
            (Cmd::Status, 0),
        ] {
            let f = frame(cmd as u8, &vec![0; n]);
            assert_eq!(lean(&f), vec![Err(NakReason::Unsupported)], "{cmd:?}");
            // unsupported before the length check
            let short = frame(cmd as u8, &vec![0; if n == 0 { 1 } else { n - 1 }]);
            assert_eq!(lean(&short), vec![Err(NakReason::Unsupported)], "{cmd:?}");
        }
        let step = frame(Cmd::Step as u8, &[0; 6]);
        assert_eq!(lean(&step), vec![Ok(ReplyType::Outputs)]);
        assert_eq!(lean(&frame(0x42, &[])), vec![Err(NakReason::UnknownCmd)]);
    }

    #[test]
    fn frames_parse_back() {
        let f = [frame(0x82, &[1, 2, 3]), frame(0x80, &[])].concat();
        let r = parse_replies(&f).unwrap();
        assert_eq!(r.len(), 2);
        assert_eq!(r[0].payload, vec![1, 2, 3]);
        let mut bad = f.clone();
        bad[4] ^= 1;
        assert!(parse_replies(&bad).is_err());
    }

    #[test]
    fn burst_rules() {
        let good = frame(Cmd::Status as u8, &[]);
        assert_eq!(expected_replies(&good, 6, 256), vec![Ok(ReplyType::Status)]);
        let mut crc = good.clone();
        crc[4] ^= 0x10;
        assert_eq!(expected_replies(&crc, 6, 256), vec![Err(NakReason::BadCrc)]);
        assert_eq!(
            expected_replies(&good[..3], 6, 256),
            vec![Err(NakReason::Timeout)]
        );
        let extra = [good.clone(), vec![0]].concat();
        assert_eq!(
            expected_replies(&extra, 6, 256),
            vec![Ok(ReplyType::Status), Err(NakReason::Overrun)]
        );
        let run0 = frame(Cmd::Run as u8, &[0, 0]);
        assert_eq!(
            expected_replies(&run0, 6, 256),
            vec![Err(NakReason::BadArg)]
        );
        let step_short = frame(Cmd::Step as u8, &[0; 5]);
        assert_eq!(
            expected_replies(&step_short, 6, 256),
            vec![Err(NakReason::BadLength)]
        );
        assert_eq!(
            expected_replies(&frame(0x42, &[]), 6, 256),
            vec![Err(NakReason::UnknownCmd)]
        );
        assert_eq!(
            expected_replies(&frame(0x03, &[0; 9]), 6, 256),
            vec![Err(NakReason::Overlong)]
        );
        assert_eq!(
            expected_replies(&[0x00, 0xa5], 6, 256),
            vec![Err(NakReason::BadSync)]
        );
    }
}
