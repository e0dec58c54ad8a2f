//! iCE40 `SB_PLL40_CORE` settings for the board clock (SIMPLE feedback).
//!
//! The same search as `icepll` from fpga-icestorm (Clifford Wolf's `icepll.cc`; RustHDL's
//! `ICE40PLLBlock` carries a private copy): for DIVR 0..15 with the phase-detector frequency
//! 10–133 MHz, DIVF 0..127 with the VCO 533–1066 MHz, DIVQ 1..6, take the output closest to the
//! request (the first found on ties). `synth`'s tests compare it with `icepll -i 100 -o F`.

/// One PLL setting: `f_out = f_in * (divf + 1) / ((divr + 1) * 2^divq)`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PllSettings {
    /// Reference clock, MHz (the Alchitry Cu's oscillator: 100).
    pub f_in_mhz: f64,
    /// The achieved output clock, MHz.
    pub f_out_mhz: f64,
    /// Reference divider (DIVR), 0..=15.
    pub divr: u32,
    /// Feedback divider (DIVF), 0..=127.
    pub divf: u32,
    /// Output divider (DIVQ), 1..=6.
    pub divq: u32,
}

impl PllSettings {
    /// The closest setting to `f_out_mhz` (16–275 MHz) from `f_in_mhz` (10–133 MHz).
    pub fn search(f_in_mhz: f64, f_out_mhz: f64) -> PllSettings {
        assert!(
            (10.0..=133.0).contains(&f_in_mhz),
            "PLL input {f_in_mhz} MHz outside 10-133 MHz"
        );
        assert!(
            (16.0..=275.0).contains(&f_out_mhz),
            "PLL output {f_out_mhz} MHz outside 16-275 MHz"
        );
        let mut best: Option<PllSettings> = None;
        for divr in 0..=15u32 {
            let f_pfd = f_in_mhz / (divr as f64 + 1.0);
            if !(10.0..=133.0).contains(&f_pfd) {
                continue;
            }
            for divf in 0..=127u32 {
                let f_vco = f_pfd * (divf as f64 + 1.0);
                if !(533.0..=1066.0).contains(&f_vco) {
                    continue;
                }
                for divq in 1..=6u32 {
                    let fout = f_vco / f64::from(1u32 << divq);
                    let better = match best {
                        None => true,
                        Some(b) => (fout - f_out_mhz).abs() < (b.f_out_mhz - f_out_mhz).abs(),
                    };
                    if better {
                        best = Some(PllSettings {
                            f_in_mhz,
                            f_out_mhz: fout,
                            divr,
                            divf,
                            divq,
                        });
                    }
                }
            }
        }
        best.expect("no PLL setting in range")
    }

    /// FILTER_RANGE from the phase-detector frequency (as `icepll`).
    pub fn filter_range(&self) -> u32 {
        let f_pfd = self.f_in_mhz / (self.divr as f64 + 1.0);
        match f_pfd {
            f if f < 17.0 => 1,
            f if f < 26.0 => 2,
            f if f < 44.0 => 3,
            f if f < 66.0 => 4,
            f if f < 101.0 => 5,
            _ => 6,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::PllSettings;

    /// `icepll -i 100 -o 80` prints DIVR 4, DIVF 31, DIVQ 3, FILTER_RANGE 2, 80.000 MHz.
    #[test]
    fn matches_icepll_at_80_mhz() {
        let p = PllSettings::search(100.0, 80.0);
        assert_eq!((p.divr, p.divf, p.divq, p.filter_range()), (4, 31, 3, 2));
        assert!((p.f_out_mhz - 80.0).abs() < 1e-9);
    }
}
