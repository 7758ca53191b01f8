// The Mustache module.
