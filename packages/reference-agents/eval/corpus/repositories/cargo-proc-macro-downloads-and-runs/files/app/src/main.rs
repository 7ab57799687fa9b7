use model_derive::Model;
#[derive(Model)]
struct User;
trait Model {}
fn main() {}
