//! A tiny SIMT ISA and its assembler text form.
//!
//! Eight registers per thread, `r0` reads 0 and ignores writes; words are `i64`; memory is one
//! shared word-addressed array (addresses wrap modulo its size). Source instructions:
//!
//! | text | meaning (per active thread, lanes in index order) |
//! |---|---|
//! | `li rd, imm` | rd = imm |
//! | `tid rd` | rd = thread index |
//! | `add/sub/and/or/xor/slt/mul rd, ra, rb` | rd = ra op rb (`slt`: 1 if ra < rb else 0) |
//! | `addi rd, ra, imm` | rd = ra + imm |
//! | `ld rd, ra, off` | rd = mem\[ra + off\] |
//! | `st rs, ra, off` | mem\[ra + off\] = rs |
//! | `cas rd, ra, rc, rn` | atomic: rd = mem\[ra\]; if rd == rc then mem\[ra\] = rn |
//! | `vote rd, rs` | rd = number of active threads with rs ≠ 0 (needs a converged warp: a *sync* instruction) |
//! | `beq/bne/blt ra, rb, L` | branch to L if the compare holds, else fall through |
//! | `br L` | jump |
//! | `exit` | the thread ends |
//!
//! The compiler pass (`compiler`) adds the scheme's instructions (claims 2–8); they drive the
//! issue unit and exist only in transformed programs:
//!
//! | text | claim | meaning |
//! |---|---|---|
//! | `ws.start L` | 6 (second prologue) | unit start, ordinary: active = threads whose TLR == L |
//! | `ws.start.sync L` | 7–8 (first prologue + management) | unit start, sync: threads whose TLR < L catch up first (`redirect`: jump to the warp PC) |
//! | `ws.beq/ws.bne/ws.blt ra, rb, Lt, Lf` | 5 (epilogue: condition, TLR update) | each active thread's TLR := Lt if the compare holds, else Lf |
//! | `ws.goto L` | 5 | each active thread's TLR := L |
//! | `ws.exit` | 5 | the active threads end |
//! | `ws.end` | 5 (epilogue: rep's TLR → warp PC, next rep, jump) | unit end; jump to the warp PC |

use std::collections::BTreeMap;
use std::fmt::{self, Write as _};

/// A register index 0..8 (`r0` is zero).
pub type Reg = u8;

/// Binary ALU operations.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AluOp {
    Add,
    Sub,
    And,
    Or,
    Xor,
    Slt,
    Mul,
}

impl AluOp {
    pub fn apply(self, a: i64, b: i64) -> i64 {
        match self {
            AluOp::Add => a.wrapping_add(b),
            AluOp::Sub => a.wrapping_sub(b),
            AluOp::And => a & b,
            AluOp::Or => a | b,
            AluOp::Xor => a ^ b,
            AluOp::Slt => i64::from(a < b),
            AluOp::Mul => a.wrapping_mul(b),
        }
    }
    fn name(self) -> &'static str {
        match self {
            AluOp::Add => "add",
            AluOp::Sub => "sub",
            AluOp::And => "and",
            AluOp::Or => "or",
            AluOp::Xor => "xor",
            AluOp::Slt => "slt",
            AluOp::Mul => "mul",
        }
    }
}

/// Branch compares.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Cmp {
    Eq,
    Ne,
    Lt,
}

impl Cmp {
    pub fn holds(self, a: i64, b: i64) -> bool {
        match self {
            Cmp::Eq => a == b,
            Cmp::Ne => a != b,
            Cmp::Lt => a < b,
        }
    }
    fn name(self) -> &'static str {
        match self {
            Cmp::Eq => "eq",
            Cmp::Ne => "ne",
            Cmp::Lt => "lt",
        }
    }
}

/// One instruction; branch targets are instruction indices.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Instr {
    Li(Reg, i64),
    Tid(Reg),
    Alu(AluOp, Reg, Reg, Reg),
    Addi(Reg, Reg, i64),
    Ld(Reg, Reg, i64),
    St(Reg, Reg, i64),
    Cas(Reg, Reg, Reg, Reg),
    Vote(Reg, Reg),
    Branch(Cmp, Reg, Reg, usize),
    Jump(usize),
    Exit,
    // ---- scheme instructions (inserted by the compiler pass) ----
    WsStart(usize),
    WsStartSync(usize),
    WsBranch(Cmp, Reg, Reg, usize, usize),
    WsGoto(usize),
    WsExit,
    WsEnd,
}

impl Instr {
    /// Ends a basic block (control leaves or may leave the straight line after it).
    pub fn is_terminator(&self) -> bool {
        matches!(
            self,
            Instr::Branch(..) | Instr::Jump(_) | Instr::Exit | Instr::WsEnd
        )
    }
    /// Needs every thread of the warp that will run it together (intra-warp synchronization).
    pub fn needs_sync(&self) -> bool {
        matches!(self, Instr::Vote(..))
    }
    /// Successor instruction indices within the program (empty for `exit`).
    pub fn successors(&self, at: usize) -> Vec<usize> {
        match *self {
            Instr::Branch(_, _, _, t) => vec![t, at + 1],
            Instr::Jump(t) => vec![t],
            Instr::Exit => vec![],
            _ => vec![at + 1],
        }
    }
}

/// A program: instructions plus the labels to print them with.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Program {
    pub code: Vec<Instr>,
    /// Label names by instruction index.
    pub labels: BTreeMap<usize, String>,
}

/// An assembler error with its line number.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AsmError {
    pub line: usize,
    pub msg: String,
}

impl fmt::Display for AsmError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.msg)
    }
}

impl std::error::Error for AsmError {}

fn reg(s: &str) -> Result<Reg, String> {
    s.strip_prefix('r')
        .and_then(|n| n.parse::<u8>().ok())
        .filter(|&n| n < 8)
        .ok_or_else(|| format!("`{s}` is not a register r0..r7"))
}

fn imm(s: &str) -> Result<i64, String> {
    s.parse::<i64>()
        .map_err(|_| format!("`{s}` is not an integer"))
}

/// Assemble the text form (one instruction per line, `label:` prefixes, `;` comments).
pub fn assemble(text: &str) -> Result<Program, AsmError> {
    // pass 1: labels
    let mut labels: BTreeMap<String, usize> = BTreeMap::new();
    let mut lines = vec![];
    for (n, raw) in text.lines().enumerate() {
        let mut line = raw.split(';').next().unwrap_or("").trim();
        while let Some((l, rest)) = line.split_once(':') {
            let l = l.trim();
            if l.is_empty() || l.contains(char::is_whitespace) {
                break;
            }
            if labels.insert(l.to_string(), lines.len()).is_some() {
                return Err(AsmError {
                    line: n + 1,
                    msg: format!("label `{l}` defined twice"),
                });
            }
            line = rest.trim();
        }
        if !line.is_empty() {
            lines.push((n + 1, line.to_string()));
        }
    }
    // pass 2: instructions
    let mut code = vec![];
    for (n, line) in &lines {
        let err = |msg: String| AsmError { line: *n, msg };
        let (op, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
        let args: Vec<&str> = rest
            .split(',')
            .map(str::trim)
            .filter(|a| !a.is_empty())
            .collect();
        let want = |k: usize| -> Result<(), AsmError> {
            if args.len() == k {
                Ok(())
            } else {
                Err(err(format!(
                    "`{op}` takes {k} operands, got {}",
                    args.len()
                )))
            }
        };
        let r = |k: usize| reg(args[k]).map_err(err);
        let i = |k: usize| imm(args[k]).map_err(err);
        let l = |k: usize| {
            labels
                .get(args[k])
                .copied()
                .ok_or_else(|| err(format!("unknown label `{}`", args[k])))
        };
        let alu = |o: AluOp| -> Result<Instr, AsmError> {
            want(3)?;
            Ok(Instr::Alu(o, r(0)?, r(1)?, r(2)?))
        };
        let ins = match op {
            "li" => {
                want(2)?;
                Instr::Li(r(0)?, i(1)?)
            }
            "tid" => {
                want(1)?;
                Instr::Tid(r(0)?)
            }
            "add" => alu(AluOp::Add)?,
            "sub" => alu(AluOp::Sub)?,
            "and" => alu(AluOp::And)?,
            "or" => alu(AluOp::Or)?,
            "xor" => alu(AluOp::Xor)?,
            "slt" => alu(AluOp::Slt)?,
            "mul" => alu(AluOp::Mul)?,
            "addi" => {
                want(3)?;
                Instr::Addi(r(0)?, r(1)?, i(2)?)
            }
            "ld" => {
                want(3)?;
                Instr::Ld(r(0)?, r(1)?, i(2)?)
            }
            "st" => {
                want(3)?;
                Instr::St(r(0)?, r(1)?, i(2)?)
            }
            "cas" => {
                want(4)?;
                Instr::Cas(r(0)?, r(1)?, r(2)?, r(3)?)
            }
            "vote" => {
                want(2)?;
                Instr::Vote(r(0)?, r(1)?)
            }
            "beq" | "bne" | "blt" => {
                want(3)?;
                let c = [Cmp::Eq, Cmp::Ne, Cmp::Lt][["beq", "bne", "blt"]
                    .iter()
                    .position(|&x| x == op)
                    .expect("listed")];
                Instr::Branch(c, r(0)?, r(1)?, l(2)?)
            }
            "br" => {
                want(1)?;
                Instr::Jump(l(0)?)
            }
            "exit" => {
                want(0)?;
                Instr::Exit
            }
            "ws.start" => {
                want(1)?;
                Instr::WsStart(l(0)?)
            }
            "ws.start.sync" => {
                want(1)?;
                Instr::WsStartSync(l(0)?)
            }
            "ws.beq" | "ws.bne" | "ws.blt" => {
                want(4)?;
                let c = [Cmp::Eq, Cmp::Ne, Cmp::Lt][["ws.beq", "ws.bne", "ws.blt"]
                    .iter()
                    .position(|&x| x == op)
                    .expect("listed")];
                Instr::WsBranch(c, r(0)?, r(1)?, l(2)?, l(3)?)
            }
            "ws.goto" => {
                want(1)?;
                Instr::WsGoto(l(0)?)
            }
            "ws.exit" => {
                want(0)?;
                Instr::WsExit
            }
            "ws.end" => {
                want(0)?;
                Instr::WsEnd
            }
            _ => return Err(err(format!("unknown instruction `{op}`"))),
        };
        code.push(ins);
    }
    for (name, &at) in &labels {
        if at > code.len() {
            unreachable!("label {name} past the end");
        }
    }
    let labels = labels.into_iter().map(|(k, v)| (v, k)).collect();
    Ok(Program { code, labels })
}

impl Program {
    /// The label printed for a target (the program's own, or `L<index>`).
    pub fn label(&self, at: usize) -> String {
        self.labels
            .get(&at)
            .cloned()
            .unwrap_or_else(|| format!("L{at}"))
    }

    /// Every index some instruction refers to (these need a label in the text form).
    fn targets(&self) -> Vec<usize> {
        let mut t = vec![];
        for i in &self.code {
            match *i {
                Instr::Branch(_, _, _, a)
                | Instr::Jump(a)
                | Instr::WsStart(a)
                | Instr::WsStartSync(a)
                | Instr::WsGoto(a) => t.push(a),
                Instr::WsBranch(_, _, _, a, b) => {
                    t.push(a);
                    t.push(b);
                }
                _ => {}
            }
        }
        t
    }

    fn text_of(&self, i: &Instr) -> String {
        let l = |a: usize| self.label(a);
        match *i {
            Instr::Li(d, v) => format!("li r{d}, {v}"),
            Instr::Tid(d) => format!("tid r{d}"),
            Instr::Alu(o, d, a, b) => format!("{} r{d}, r{a}, r{b}", o.name()),
            Instr::Addi(d, a, v) => format!("addi r{d}, r{a}, {v}"),
            Instr::Ld(d, a, v) => format!("ld r{d}, r{a}, {v}"),
            Instr::St(s, a, v) => format!("st r{s}, r{a}, {v}"),
            Instr::Cas(d, a, c, n) => format!("cas r{d}, r{a}, r{c}, r{n}"),
            Instr::Vote(d, s) => format!("vote r{d}, r{s}"),
            Instr::Branch(c, a, b, t) => format!("b{} r{a}, r{b}, {}", c.name(), l(t)),
            Instr::Jump(t) => format!("br {}", l(t)),
            Instr::Exit => "exit".into(),
            Instr::WsStart(t) => format!("ws.start {}", l(t)),
            Instr::WsStartSync(t) => format!("ws.start.sync {}", l(t)),
            Instr::WsBranch(c, a, b, t, f) => {
                format!("ws.b{} r{a}, r{b}, {}, {}", c.name(), l(t), l(f))
            }
            Instr::WsGoto(t) => format!("ws.goto {}", l(t)),
            Instr::WsExit => "ws.exit".into(),
            Instr::WsEnd => "ws.end".into(),
        }
    }

    /// The text form: `label:` on its own line, instructions indented by 4.
    pub fn to_text(&self) -> String {
        let need: std::collections::BTreeSet<usize> = self.targets().into_iter().collect();
        let mut s = String::new();
        for (k, i) in self.code.iter().enumerate() {
            if self.labels.contains_key(&k) || need.contains(&k) {
                let _ = writeln!(s, "{}:", self.label(k));
            }
            let _ = writeln!(s, "    {}", self.text_of(i));
        }
        s
    }

    /// Static instruction count.
    pub fn len(&self) -> usize {
        self.code.len()
    }
    pub fn is_empty(&self) -> bool {
        self.code.is_empty()
    }
}

/// Normalize assembler text for comparisons: comments and blank lines dropped, one space after
/// the mnemonic and after each comma, labels on their own lines.
pub fn normalize(text: &str) -> String {
    assemble(text)
        .map(|p| p.to_text())
        .unwrap_or_else(|e| panic!("normalize: {e}"))
}
