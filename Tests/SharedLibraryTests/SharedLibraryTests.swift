import CSharedLibrary
import Testing

/// A library opened on first use: opened once, and a library that cannot be opened says why.
@Suite("CSharedLibrary")
struct SharedLibraryTests {
    /// A library of `soname` (a literal, so its bytes outlive the library).
    static func library(_ soname: StaticString) -> UnsafeMutablePointer<roost_shared_library> {
        let library = UnsafeMutablePointer<roost_shared_library>.allocate(capacity: 1)
        let cString = { (text: StaticString) in UnsafeRawPointer(text.utf8Start).assumingMemoryBound(to: CChar.self) }
        roost_shared_library_init(library, cString(soname), cString("a test"))
        return library
    }

    @Test func aLibraryThatIsThereOpensOnceAndGivesItsFunctions() {
        let library = Self.library("libc.so.6")
        defer { library.deallocate() }
        #expect(roost_shared_library_open(library))
        let handle = library.pointee.handle
        #expect(roost_shared_library_open(library) && library.pointee.handle == handle, "opened once")
        #expect(roost_shared_library_function(library, "getpid") != nil)
    }

    @Test func aLibraryThatIsNotThereSaysWhy() {
        let library = Self.library("libroost-missing.so.1")
        defer { library.deallocate() }
        #expect(!roost_shared_library_open(library))
        let error = withUnsafeBytes(of: library.pointee.error) {
            String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
        }
        #expect(error.contains("libroost-missing.so.1"), "\(error)")
        #expect(!roost_shared_library_open(library), "the answer is kept")
    }
}
