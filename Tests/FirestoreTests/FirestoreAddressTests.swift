import Firestore
import Testing

@Suite struct FirestoreAddressTests {
    @Test func projectAloneIsTheDefaultDatabase() throws {
        let address = try FirestoreAddress.parse("firestore://demo-roost")
        #expect(address.project == "demo-roost")
        #expect(address.database == "(default)")
        #expect(address.documentsRoot == "projects/demo-roost/databases/(default)/documents")
        #expect(address.description == "firestore://demo-roost")
    }

    @Test func aNamedDatabase() throws {
        let address = try FirestoreAddress.parse("firestore://app-prod/reports")
        #expect(address.resourceName == "projects/app-prod/databases/reports")
        #expect(address.description == "firestore://app-prod/reports")
    }

    @Test(arguments: ["firestore://", "firestore://a/b/c", "firestore://Demo", "firestore://demo/", "firestore://x y"])
    func badAddressesSayWhy(_ location: String) {
        #expect(throws: FirestoreError.self) { try FirestoreAddress.parse(location) }
        do {
            _ = try FirestoreAddress.parse(location)
        } catch {
            #expect(error.description.hasPrefix("\(location): not a database address"))
        }
    }

    @Test func onlyTheSchemeMakesADatabase() {
        #expect(FirestoreAddress.isDatabase("firestore://demo"))
        #expect(!FirestoreAddress.isDatabase("content"))
        #expect(!FirestoreAddress.isDatabase("firestore:demo"))
    }
}
