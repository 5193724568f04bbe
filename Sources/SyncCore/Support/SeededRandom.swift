/// A small, fast, seeded random source (SplitMix64): the same seed gives the same sequence on
/// every machine, so a randomized run can be replayed from its seed. LocalCloud's random faults
/// draw from it, and so can an app's randomized tests; here so that neither the simulator nor the
/// runtime depends on test support.
public struct SeededRandom: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// A source that gives the same sequence for the same seed.
    public init(seed: UInt64) {
        state = seed
    }

    /// The next number of the sequence.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
