//! Tests for the report writers and plot.
