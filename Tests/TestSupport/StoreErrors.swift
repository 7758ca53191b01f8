import Store
import Testing

/// The error `body` throws, if it is a `StoreError` (a test fails on any other).
package func storeError<T>(_ body: () throws -> T) -> StoreError? {
    do {
        _ = try body()
        return nil
    } catch let error as StoreError {
        return error
    } catch {
        Issue.record("not a StoreError: \(error)")
        return nil
    }
}
