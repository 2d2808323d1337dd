//! Noise subtraction and canonical forms shared by classify and baselines.
