//! What the processor must have for this build: `.cargo/config.toml` compiles x86-64 builds
//! for x86-64-v3, and a binary copied to an older processor would die of an illegal
//! instruction somewhere in its first search instead of saying why.

/// Calls the macro `$m` with every feature `missing_features` checks: one list for the check
/// and for its test against the standard library.
#[cfg(target_arch = "x86_64")]
macro_rules! checked_features {
    ($m:ident) => {
        $m!(
            "sse3", "ssse3", "sse4.1", "sse4.2", "popcnt", "avx", "avx2", "fma", "bmi1", "bmi2", "lzcnt",
            "movbe", "f16c", "avx512f", "avx512cd", "avx512bw", "avx512dq", "avx512vl"
        )
    };
}

/// The instruction-set extensions this build was compiled to use that the processor running
/// it lacks (none on other architectures, or for a baseline build). Read from `cpuid` itself:
/// `is_x86_feature_detected!` answers yes for every feature the build was compiled with.
pub fn missing_features() -> Vec<&'static str> {
    #[allow(unused_mut)]
    let mut missing = Vec::new();
    #[cfg(target_arch = "x86_64")]
    {
        let present = x86::present();
        macro_rules! need {
            ($($feature:tt),*) => {
                $(
                    if cfg!(target_feature = $feature) && !present.contains(&$feature) {
                        missing.push($feature);
                    }
                )*
            };
        }
        checked_features!(need);
    }
    missing
}

#[cfg(target_arch = "x86_64")]
mod x86 {
    use std::arch::x86_64::{__cpuid, __cpuid_count, CpuidResult};

    /// The features `missing_features` asks about that this processor has and its operating
    /// system enables (the AVX registers are usable only where the OS saves them).
    pub fn present() -> Vec<&'static str> {
        // SAFETY: cpuid exists on every x86-64 processor; leaves above the highest one the
        // processor reports are not read.
        #[allow(unused_unsafe)]
        let leaf = |eax: u32, ecx: u32| -> CpuidResult { unsafe { __cpuid_count(eax, ecx) } };
        #[allow(unused_unsafe)]
        let (max, max_ext) = unsafe { (__cpuid(0).eax, __cpuid(0x8000_0000).eax) };
        let one = leaf(1, 0);
        let seven = if max >= 7 { leaf(7, 0) } else { CpuidResult { eax: 0, ebx: 0, ecx: 0, edx: 0 } };
        let ext = if max_ext >= 0x8000_0001 { leaf(0x8000_0001, 0).ecx } else { 0 };
        let bit = |reg: u32, n: u32| reg >> n & 1 == 1;
        // XCR0: SSE and AVX state (bits 1, 2), and the AVX-512 state (bits 5-7).
        let xcr0 = if bit(one.ecx, 27) { xgetbv0() } else { 0 };
        let os_avx = xcr0 & 0b110 == 0b110;
        let os_avx512 = os_avx && xcr0 & 0b1110_0000 == 0b1110_0000;
        let table = [
            ("sse3", bit(one.ecx, 0)),
            ("ssse3", bit(one.ecx, 9)),
            ("fma", bit(one.ecx, 12) && os_avx),
            ("sse4.1", bit(one.ecx, 19)),
            ("sse4.2", bit(one.ecx, 20)),
            ("movbe", bit(one.ecx, 22)),
            ("popcnt", bit(one.ecx, 23)),
            ("avx", bit(one.ecx, 28) && os_avx),
            ("f16c", bit(one.ecx, 29) && os_avx),
            ("bmi1", bit(seven.ebx, 3)),
            ("avx2", bit(seven.ebx, 5) && os_avx),
            ("bmi2", bit(seven.ebx, 8)),
            ("avx512f", bit(seven.ebx, 16) && os_avx512),
            ("avx512dq", bit(seven.ebx, 17) && os_avx512),
            ("avx512cd", bit(seven.ebx, 28) && os_avx512),
            ("avx512bw", bit(seven.ebx, 30) && os_avx512),
            ("avx512vl", bit(seven.ebx, 31) && os_avx512),
            ("lzcnt", bit(ext, 5)),
        ];
        table.iter().filter(|(_, has)| *has).map(|(name, _)| *name).collect()
    }

    /// XCR0, read only where cpuid says the OS has enabled `xgetbv` (OSXSAVE).
    fn xgetbv0() -> u64 {
        let (lo, hi): (u32, u32);
        // SAFETY: the caller checked OSXSAVE, which makes `xgetbv` with ecx = 0 valid.
        unsafe {
            std::arch::asm!("xgetbv", in("ecx") 0u32, out("eax") lo, out("edx") hi, options(nomem, nostack, preserves_flags));
        }
        (hi as u64) << 32 | lo as u64
    }
}

/// The line `pbrain-gorin` prints and exits with where `missing_features` is not empty.
pub fn refusal(missing: &[&str]) -> String {
    format!(
        "pbrain-gorin: this build uses {} which this processor lacks; rebuild it for this \
         processor with RUSTFLAGS=\"-C target-cpu=native\" cargo build --release",
        missing.join(", ")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(target_arch = "x86_64")]
    #[test]
    fn cpuid_agrees_with_the_standard_library_on_features_the_build_does_not_assume() {
        // `is_x86_feature_detected!` asks the processor only for features the build was not
        // compiled with; for those, both readings of cpuid must agree.
        let present = x86::present();
        macro_rules! agree {
            ($($feature:tt),*) => {
                $(
                    if !cfg!(target_feature = $feature) {
                        assert_eq!(
                            present.contains(&$feature),
                            std::arch::is_x86_feature_detected!($feature),
                            $feature
                        );
                    }
                )*
            };
        }
        checked_features!(agree);
    }

    #[test]
    fn the_processor_running_the_tests_has_what_their_build_uses() {
        // The tests run on the machine that built them, so nothing may be missing; a feature
        // named wrongly in `checked_features!` (unknown to `is_x86_feature_detected!`) fails
        // to compile the test above.
        assert_eq!(missing_features(), Vec::<&str>::new());
    }

    #[test]
    fn the_refusal_names_the_missing_features_and_the_remedy() {
        let line = refusal(&["avx2", "bmi2"]);
        assert!(line.contains("avx2, bmi2"), "{line}");
        assert!(line.contains("target-cpu=native"), "{line}");
    }
}
