//! realdrift Lambda function (scan).

fn main() {}
