//! Surface layouts.
