import Dispatch

#if canImport(Glibc)
import Glibc
#endif

/// The process's heap.
public enum Heap {
    /// Returns the allocator's free memory to the system: glibc keeps what was freed, scattered
    /// between live blocks, and a phase that freed much (a store's decoded documents) would
    /// otherwise leave it under everything allocated after. (`malloc_trim` is looked up at run
    /// time: the Glibc module does not declare it.)
    public static func trim() {
        #if canImport(Glibc)
        typealias MallocTrim = @convention(c) (Int) -> Int32
        if let symbol = mallocTrim { _ = unsafeBitCast(symbol, to: MallocTrim.self)(0) }
        #endif
    }

    /// Has the heap grow, and keep when trimmed, `growthPad` bytes more than it needs at a
    /// time (glibc's `M_TOP_PAD`, 128 KiB unless set): a build takes tens of megabytes in its
    /// first tenth of a second, each step a system call, and memory given back by `trim`
    /// is taken again by the next phase, a page fault per page. Pages of the pad that are
    /// never touched cost nothing. (Setting it also stops glibc raising its mmap threshold as
    /// large blocks are freed; a full render measured the same user CPU either way.)
    public static func padGrowth() {
        #if canImport(Glibc)
        typealias MallocOption = @convention(c) (Int32, Int32) -> Int32
        if let symbol = mallocOption { _ = unsafeBitCast(symbol, to: MallocOption.self)(topPadOption, growthPad) }
        #endif
    }

    /// The heap's growth pad (`padGrowth`).
    private static let growthPad: Int32 = 32 << 20

    /// Keeps `value` (and all it holds) alive until the process exits. For a command about to
    /// exit (`roost check`): the system takes the memory back at once, while freeing a store's
    /// worth of objects one by one takes a single thread tens of milliseconds at 100,000
    /// tweets, and seconds at a million.
    public static func keepUntilExit(_ value: Any) {
        _ = Unmanaged.passRetained(Kept(value))
    }

    /// Drops this reference to `value` on another thread, in `group`: given the last one, its
    /// memory is freed there while this thread goes on (freeing a store's worth of objects is
    /// work for one core that the other can take).
    public static func release<T: Sendable>(_ value: consuming T, in group: DispatchGroup) {
        DispatchQueue.global(qos: .userInitiated).async(group: group) { [value] in withExtendedLifetime(value) {} }
    }

    private final class Kept {
        let value: Any
        init(_ value: Any) { self.value = value }
    }

    #if canImport(Glibc)
    // Unchecked: a raw pointer is not Sendable, but this one is set once (a `let`, made before
    // any use) to a function's address and only read after; no thread can see it change.
    private nonisolated(unsafe) static let mallocTrim = dlsym(nil, "malloc_trim")
    private nonisolated(unsafe) static let mallocOption = dlsym(nil, "mallopt")
    /// `mallopt`'s `M_TOP_PAD` (malloc.h).
    private static let topPadOption: Int32 = -2
    #endif
}
