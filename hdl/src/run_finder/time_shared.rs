//! Time-shared finder (emb. 7): see the parent module.
