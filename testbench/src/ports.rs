//! One port table per unit: [`port_table!`] takes the exported top's ports once (name and width,
//! in frame order) and generates from them
//! - the [`TracePorts`](crate::verilator::TracePorts) map (Verilator replay, the board bridge,
//!   recorded scenarios, `synth export`'s manifest check), and
//! - the [`HdlDut`](crate::rtl::HdlDut) adapter (`drive`/`sample`) of every RustHDL block that has
//!   these ports.
//!
//! The contract-port check of the registry suite (`tests/units.rs`) compares the exported
//! Verilog's top against the same table, so a port added to the RTL but not to the table (or the
//! other way round) fails there.
//!
//! Each port's field in the golden model's `In`/`Out` struct has the port's name; its value is cut
//! to the port's width on the way in, exactly what the pins of the exported top see.

/// A golden-model field type carried by a port (`bool`, unsigned integers).
pub trait PortValue: Sized {
    /// The value as an unsigned integer (not cut to any width).
    fn to_port(&self) -> u128;
    /// The value read from a port of at most 128 bits.
    fn from_port(v: u128) -> Self;
}

macro_rules! port_value_int {
    ($($t:ty),*) => {$(
        impl PortValue for $t {
            fn to_port(&self) -> u128 {
                *self as u128
            }
            fn from_port(v: u128) -> Self {
                v as $t
            }
        }
    )*};
}
port_value_int!(u8, u16, u32, u64, u128, usize);

impl PortValue for bool {
    fn to_port(&self) -> u128 {
        u128::from(*self)
    }
    fn from_port(v: u128) -> Self {
        v != 0
    }
}

/// A RustHDL signal value type (`Bit` or `Bits<N>`) as an unsigned integer.
pub trait PortSignal: Sized {
    /// Width of the signal.
    const WIDTH: usize;
    /// The signal's value from the low [`Self::WIDTH`] bits of `v` (the rest are dropped, as a
    /// narrower pin would).
    fn from_port(v: u128) -> Self;
    /// The signal's value.
    fn to_port(self) -> u128;
}

impl PortSignal for bool {
    const WIDTH: usize = 1;
    fn from_port(v: u128) -> Self {
        v & 1 == 1
    }
    fn to_port(self) -> u128 {
        u128::from(self)
    }
}

impl<const N: usize> PortSignal for rust_hdl::prelude::Bits<N> {
    const WIDTH: usize = N;
    fn from_port(v: u128) -> Self {
        use rust_hdl::prelude::ToBits;
        cut(v, N).to_bits::<N>()
    }
    fn to_port(self) -> u128 {
        self.to_u128()
    }
}

/// A port table that also reads its inputs back from port values (the inverse of
/// [`TracePorts::encode`](crate::verilator::TracePorts::encode) on values cut to the port
/// widths): a probe of a sub-block's input ports in a composed export is decoded into the unit's
/// own `In` type, so the unit's spec checker can judge it.
pub trait InputDecode: crate::verilator::TracePorts {
    /// Build the input type from one value per input port, in port order.
    fn decode_inputs(&self, v: &[u128]) -> Self::In;
}

/// `v` cut to its low `width` bits.
pub fn cut(v: u128, width: usize) -> u128 {
    if width >= 128 {
        v
    } else {
        v & ((1u128 << width) - 1)
    }
}

/// Declare a unit's port table; see the [module doc](self).
///
/// ```ignore
/// port_table! {
///     /// Port map of the exported top.
///     pub struct SimtPorts(SimtConfig) as c: SimtIn => SimtOut;
///     dut [const T: usize, const P: usize, const RB: usize] SimtIssue<T, P, RB>;
///     ports {
///         in reset: 1,
///         in init_pc: c.pc_bits,
///         ...
///         out warp_pc: c.pc_bits,
///     }
/// }
/// ```
/// The ports are listed in the exported top's order (after `clock`); the Verilator and bridge
/// frames carry the inputs, and the outputs, each in that order. `(Config) as c` makes the table
/// a tuple struct over the unit's config, `c` naming it in the width expressions; without it
/// (`pub struct XPorts: XIn => XOut;`) the table is a unit struct and the widths are
/// constants. Each `dut` line implements `HdlDut` for a clocked RustHDL block (its `clock` input
/// is the stepping clock) whose port fields carry the names.
#[macro_export]
macro_rules! port_table {
    (
        $(#[$meta:meta])*
        $vis:vis struct $ports:ident($cfg:ty) as $c:ident : $in:path => $out:path;
        $(dut [$($gen:tt)*] $dut:ty;)*
        ports { $($body:tt)* }
    ) => {
        $(#[$meta])*
        $vis struct $ports(pub $cfg);
        impl $ports {
            fn table_config(&self) -> &$cfg {
                &self.0
            }
        }
        $crate::port_table!(@split {$ports, $c, $in, $out, [$(dut [$($gen)*] $dut;)*]}
            [] [] [] $($body)*);
    };
    (
        $(#[$meta:meta])*
        $vis:vis struct $ports:ident : $in:path => $out:path;
        $(dut [$($gen:tt)*] $dut:ty;)*
        ports { $($body:tt)* }
    ) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, Default)]
        $vis struct $ports;
        impl $ports {
            fn table_config(&self) -> &() {
                &()
            }
        }
        $crate::port_table!(@split {$ports, _c, $in, $out, [$(dut [$($gen)*] $dut;)*]}
            [] [] [] $($body)*);
    };
    // split the ordered list into inputs and outputs, keeping the order of all
    (@split $ctx:tt [$($i:tt)*] [$($o:tt)*] [$($all:tt)*] in $n:ident : $w:expr $(, $($rest:tt)*)?) => {
        $crate::port_table!(@split $ctx [$($i)* $n: $w,] [$($o)*] [$($all)* $n] $($($rest)*)?);
    };
    (@split $ctx:tt [$($i:tt)*] [$($o:tt)*] [$($all:tt)*] out $n:ident : $w:expr $(, $($rest:tt)*)?) => {
        $crate::port_table!(@split $ctx [$($i)*] [$($o)* $n: $w,] [$($all)* $n] $($($rest)*)?);
    };
    (@split {$ports:ident, $c:ident, $in:path, $out:path, [$(dut [$($gen:tt)*] $dut:ty;)*]}
        $ins:tt $outs:tt [$($all:ident)*]) => {
        $crate::port_table!(@impl $ports, $c, $in, $out; inputs $ins outputs $outs
            order [$($all)*]);
        $($crate::port_table!(@dut [$($gen)*] $dut, $in, $out; inputs $ins outputs $outs);)*
    };
    (@impl $ports:ident, $c:ident, $in:path, $out:path;
        inputs [$($iname:ident : $iw:expr,)*]
        outputs [$($oname:ident : $ow:expr,)*]
        order [$($all:ident)*]
    ) => {
        impl $ports {
            /// The input fields in port order, not cut to the port widths.
            #[allow(dead_code)]
            pub fn raw_inputs(&self, i: &$in) -> Vec<u128> {
                vec![$($crate::ports::PortValue::to_port(&i.$iname)),*]
            }
        }

        impl $crate::verilator::TracePorts for $ports {
            type In = $in;
            type Out = $out;
            #[allow(unused_variables)]
            fn inputs(&self) -> Vec<$crate::verilator::Port> {
                let $c = self.table_config();
                vec![$($crate::verilator::Port::new(stringify!($iname), $iw)),*]
            }
            #[allow(unused_variables)]
            fn outputs(&self) -> Vec<$crate::verilator::Port> {
                let $c = self.table_config();
                vec![$($crate::verilator::Port::new(stringify!($oname), $ow)),*]
            }
            #[allow(unused_variables)]
            fn encode(&self, i: &$in) -> Vec<u128> {
                let $c = self.table_config();
                vec![$($crate::ports::cut($crate::ports::PortValue::to_port(&i.$iname), $iw)),*]
            }
            fn decode(&self, v: &[u128]) -> $out {
                let mut v = v.iter();
                $out {
                    $($oname: $crate::ports::PortValue::from_port(
                        *v.next().expect("one value per output port"),
                    ),)*
                }
            }
            fn header_order(&self) -> Vec<String> {
                vec![$(stringify!($all).to_string()),*]
            }
        }

        impl $crate::ports::InputDecode for $ports {
            fn decode_inputs(&self, v: &[u128]) -> $in {
                let mut v = v.iter();
                $in {
                    $($iname: $crate::ports::PortValue::from_port(
                        *v.next().expect("one value per input port"),
                    ),)*
                }
            }
        }
    };
    (@dut [$($gen:tt)*] $dut:ty, $in:path, $out:path;
        inputs [$($iname:ident : $iw:expr,)*]
        outputs [$($oname:ident : $ow:expr,)*]
    ) => {
        impl<$($gen)*> $crate::rtl::HdlDut for $dut {
            type In = $in;
            type Out = $out;
            fn drive(&mut self, i: &$in) {
                $(self.$iname.next = $crate::ports::PortSignal::from_port(
                    $crate::ports::PortValue::to_port(&i.$iname),
                );)*
            }
            fn sample(&self) -> $out {
                $out {
                    $($oname: $crate::ports::PortValue::from_port(
                        $crate::ports::PortSignal::to_port(self.$oname.val()),
                    ),)*
                }
            }
            fn clock_signal(
                &mut self,
            ) -> Option<
                &mut rust_hdl::prelude::Signal<rust_hdl::prelude::In, rust_hdl::prelude::Clock>,
            > {
                Some(&mut self.clock)
            }
        }

        impl<$($gen)*> $crate::rtl::HdlInputs for $dut {
            fn sample_inputs(&self) -> $in {
                $in {
                    $($iname: $crate::ports::PortValue::from_port(
                        $crate::ports::PortSignal::to_port(self.$iname.val()),
                    ),)*
                }
            }
        }
    };
}

#[cfg(test)]
mod tests {
    use super::*;
    use rust_hdl::prelude::Bits;

    #[test]
    fn values_are_cut_to_the_port_width() {
        assert_eq!(cut(0x1ff, 8), 0xff);
        assert_eq!(cut(u128::MAX, 128), u128::MAX);
        let b: Bits<4> = PortSignal::from_port(0x3a);
        assert_eq!(PortSignal::to_port(b), 0xa);
        let w: Bits<100> = PortSignal::from_port(u128::MAX);
        assert_eq!(PortSignal::to_port(w), (1u128 << 100) - 1);
        assert!(!<bool as PortSignal>::from_port(2));
        assert_eq!(<u8 as PortValue>::from_port(0x1_05), 5);
        assert!(<bool as PortValue>::from_port(2));
    }
}
