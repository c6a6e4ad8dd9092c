//! (module under construction: see the issue that builds it)
