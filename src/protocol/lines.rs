//! Bytes into lines: the protocol's line endings (LF, CR or CRLF) and its longest line.

/// Longest line kept; the rest of a longer line is dropped (no command is that long).
pub const MAX_LINE: usize = 64 * 1024;

/// Splits a byte stream into lines on LF, CR or CRLF (empty lines are left to the parser).
#[derive(Default)]
pub struct LineSplitter {
    line: Vec<u8>,
    overflow: bool,
}

impl LineSplitter {
    /// Feeds bytes, calling `f` with every complete line.
    pub fn push(&mut self, bytes: &[u8], mut f: impl FnMut(&str)) {
        for &b in bytes {
            if b == b'\n' || b == b'\r' {
                self.flush(&mut f);
            } else if self.line.len() < MAX_LINE {
                self.line.push(b);
            } else {
                self.overflow = true;
            }
        }
    }

    /// Ends the stream: a last line without a line ending still counts.
    pub fn finish(&mut self, mut f: impl FnMut(&str)) {
        self.flush(&mut f);
    }

    fn flush(&mut self, f: &mut impl FnMut(&str)) {
        if !self.line.is_empty() {
            f(&String::from_utf8_lossy(&self.line));
        }
        self.line.clear();
        self.overflow = false;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn split(chunks: &[&[u8]]) -> Vec<String> {
        let mut s = LineSplitter::default();
        let mut out = Vec::new();
        for c in chunks {
            s.push(c, |l| out.push(l.to_string()));
        }
        s.finish(|l| out.push(l.to_string()));
        out
    }

    #[test]
    fn all_line_endings() {
        assert_eq!(split(&[b"START 15\r\nBEGIN\r\n"]), ["START 15", "BEGIN"]);
        assert_eq!(split(&[b"START 15\rBEGIN\r"]), ["START 15", "BEGIN"]);
        assert_eq!(split(&[b"START 15\nBEGIN"]), ["START 15", "BEGIN"]);
        assert_eq!(split(&[b"STA", b"RT 15\r", b"\nBEG", b"IN\n"]), ["START 15", "BEGIN"]);
    }

    #[test]
    fn long_lines_are_cut_and_binary_survives() {
        let long = vec![b'A'; MAX_LINE * 3];
        let out = split(&[&long, b"\nEND\n"]);
        assert_eq!(out.len(), 2);
        assert_eq!(out[0].len(), MAX_LINE);
        assert_eq!(out[1], "END");
        let junk = split(&[&[0xff, 0xfe, 0x00, b'\n']]);
        assert_eq!(junk.len(), 1);
    }
}
