import Foundation

extension MustacheValue {
    /// Converts loosely typed data (e.g. the output of `JSONSerialization`,
    /// `[String: Any]`, `[Any]`, `NSNumber`, `NSNull`) into a value.
    /// Values that are already `MustacheBoxable` are used as they are;
    /// anything else unknown becomes `.null`.
    public init(any value: Any?) {
        guard let value else {
            self = .null
            return
        }
        switch value {
        case let v as MustacheBoxable where !(value is NSNumber):
            self = v.mustacheValue
        case let n as NSNumber:
            switch String(cString: n.objCType) {
            case "c", "B": self = .bool(n.boolValue)
            case "d", "f": self = .double(n.doubleValue)
            default: self = .int(n.intValue)
            }
        case let s as String: self = .string(s)
        case let a as [Any?]: self = .list(a.map { MustacheValue(any: $0) })
        case let d as [String: Any?]:
            self = .object(d.mapValues { MustacheValue(any: $0) })
        case is NSNull: self = .null
        default: self = .null
        }
    }
}
