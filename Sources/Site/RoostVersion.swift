/// Roost's version: printed by `roost --version`, named by each page's generator tag, and
/// part of every fingerprint (a new version may render differently).
package enum RoostVersion {
    package static let current = "0.1.0"
}
