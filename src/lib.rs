//! Root package: integration tests live in `tests/`. See README.md.
