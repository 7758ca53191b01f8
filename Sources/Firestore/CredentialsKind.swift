extension Credentials {
    /// The kinds of Application Default Credentials file Roost takes.
    package enum Kind: Sendable, Equatable {
        case serviceAccount(ServiceAccount)
        case authorizedUser(AuthorizedUser)
    }
}
