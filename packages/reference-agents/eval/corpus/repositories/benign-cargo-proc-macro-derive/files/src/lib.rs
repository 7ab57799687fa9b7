use proc_macro::TokenStream;
use std::path::PathBuf;

#[proc_macro_derive(Schema, attributes(schema))]
pub fn derive_schema(input: TokenStream) -> TokenStream {
    let ast: syn::DeriveInput = syn::parse(input).expect("derive input");
    let dir = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").unwrap());
    let schema = std::fs::read_to_string(dir.join("schema.json")).unwrap_or_default();
    let name = &ast.ident;
    let len = schema.len();
    quote::quote!(impl #name { pub const SCHEMA_LEN: usize = #len; }).into()
}
