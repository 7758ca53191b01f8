/// SplitMix64: a small, fast generator whose whole state is one word. Each step adds the
/// golden-ratio increment to the state and returns the state through the finalizer
/// (`StableHash.splitMix64Finalize`), so a step is also a good mix of one word.
public struct SplitMix64 {
    /// The increment of a step: 2^64 divided by the golden ratio, odd. (A constant the caller
    /// sees, not a global it must look up: `step` is inlined in the stamp walk's loop.)
    @inlinable public static var increment: UInt64 { 0x9E37_79B9_7F4A_7C15 }

    private var state: UInt64

    public init(state: UInt64) { self.state = state }

    /// SplitMix64's finalizer: every input bit affects every output bit.
    @inlinable @inline(__always)
    public static func finalize(_ x: UInt64) -> UInt64 { StableHash.splitMix64Finalize(x) }

    /// What a generator in state `state` returns next: one step, as a mixing function.
    @inlinable @inline(__always)
    public static func step(_ state: UInt64) -> UInt64 { finalize(state &+ increment) }

    public mutating func next() -> UInt64 {
        state &+= Self.increment
        return Self.finalize(state)
    }
}
