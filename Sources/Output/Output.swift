// The Output module.
