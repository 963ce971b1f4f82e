//! Propagation over the lab's own clause lists: unit propagation, failed-literal probing and hyper-binary resolution.
