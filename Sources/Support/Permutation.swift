extension Array {
    /// Puts the element at `order[i]` at position `i`, for every `i`, in place: by swaps
    /// along each cycle of `order`, so the elements are neither copied nor retained again, and
    /// no second array of them is ever made (at 4.4 million decoded documents, that second
    /// array was most of a build's peak). `order` must be a permutation of the indices; it is
    /// used up (left as the identity).
    public mutating func rearrange(takingFrom order: inout [Int]) {
        precondition(order.count == count)
        for start in order.indices where order[start] != start {
            var current = start
            while order[current] != start {
                let next = order[current]
                swapAt(current, next)
                order[current] = current
                current = next
            }
            order[current] = current
        }
    }
}
