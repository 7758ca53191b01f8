#if canImport(Glibc)
import Glibc
#endif

/// The process's heap.
package enum Heap {
    /// Returns the allocator's free memory to the system: glibc keeps what was freed, scattered
    /// between live blocks, and a phase that freed much (a store's decoded documents) would
    /// otherwise leave it under everything allocated after. (`malloc_trim` is looked up at run
    /// time: the Glibc module does not declare it.)
    package static func trim() {
        #if canImport(Glibc)
        typealias MallocTrim = @convention(c) (Int) -> Int32
        if let symbol = mallocTrim { _ = unsafeBitCast(symbol, to: MallocTrim.self)(0) }
        #endif
    }

    #if canImport(Glibc)
    private nonisolated(unsafe) static let mallocTrim = dlsym(nil, "malloc_trim")
    #endif
}
