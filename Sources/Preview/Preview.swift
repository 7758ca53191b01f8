// The Preview module.
