import Foundation
import SyncPorts
import Testing

/// `EngineState`: small named values, kept until set to nil, listed by prefix.
@Suite("Store contract: engine state")
struct EngineStateContract {
    @Test(arguments: StoreShape.allCases)
    func aValueIsKeptUntilSetToNilAndListedByItsPrefix(_ shape: StoreShape) throws {
        let contract = try ContractStore(shape)
        try contract.transaction { (state: any EngineState) in
            try state.setState("token.a", "1")
            try state.setState("token.b", "2")
            try state.setState("user", "alice")
            try state.setState("token.a", "3")
        }
        let (a, keys) = try contract.transaction { (state: any EngineState) in (try state.state("token.a"), try state.stateKeys(prefix: "token.")) }
        #expect(a == "3" && Set(keys) == ["token.a", "token.b"])
        try contract.transaction { (state: any EngineState) in try state.setState("token.a", nil) }
        #expect(try contract.transaction { (state: any EngineState) in try state.state("token.a") } == nil)
        #expect(try contract.transaction { (state: any EngineState) in try state.stateKeys(prefix: "token.") } == ["token.b"])
    }
}
