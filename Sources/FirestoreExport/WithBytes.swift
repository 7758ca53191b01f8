/// `bytes.withUnsafeBytes(body)` keeping `body`'s error type (`withUnsafeBytes` rethrows
/// `any Error`).
func withBytes<T, E: Error>(
    _ bytes: ArraySlice<UInt8>, _ body: (UnsafeRawBufferPointer) throws(E) -> T
) throws(E) -> T {
    try bytes.withUnsafeBytes { raw in Result { () throws(E) -> T in try body(raw) } }.get()
}
