//! The options of `#[bench(...)]` and `#[bench_group(...)]`, as divan spells them.

use proc_macro2::TokenStream;
use quote::quote;
use syn::ext::IdentExt;
use syn::parse::{Parse, ParseStream};
use syn::punctuated::Punctuated;
use syn::{bracketed, Expr, Ident, Path, Token, Type};

/// Options divan reads that Picollo's runner decides itself (how long, how many samples,
/// how many threads): read, type-checked by nothing, and ignored.
const IGNORED: [&str; 7] = [
    "sample_count",
    "sample_size",
    "min_time",
    "max_time",
    "skip_ext_time",
    "threads",
    "cycles_count",
];

/// What an attribute's options say.
#[derive(Default)]
pub struct Options {
    pub name: Option<Expr>,
    pub args: Option<Expr>,
    pub consts: Option<Expr>,
    pub types: Option<Vec<Type>>,
    /// Counter expressions, each an `IntoCounter` value.
    pub counters: Vec<TokenStream>,
    pub ignore: Option<Expr>,
    pub krate: Option<Path>,
    /// The options given that are accepted and ignored ([`IGNORED`]): the runtime says so.
    pub ignored: Vec<String>,
}

impl Parse for Options {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        let mut options = Options::default();
        while !input.is_empty() {
            let key = Ident::parse_any(input)?;
            let valued = input.peek(Token![=]);
            if valued {
                input.parse::<Token![=]>()?;
            }
            options.set(&key, valued, input)?;
            if !input.is_empty() {
                input.parse::<Token![,]>()?;
            }
        }
        Ok(options)
    }
}

impl Options {
    /// Read option `key`'s value (after its `=`, where `valued`).
    fn set(&mut self, key: &Ident, valued: bool, input: ParseStream) -> syn::Result<()> {
        let name = key.to_string();
        if name == "ignore" && !valued {
            self.ignore = Some(syn::parse_quote!(true));
            return Ok(());
        }
        if name == "skip_ext_time" && !valued {
            self.ignored.push(name);
            return Ok(());
        }
        if !valued {
            let why = format!("option `{name}` takes a value: `{name} = ...`");
            return Err(syn::Error::new(key.span(), why));
        }
        match name.as_str() {
            "types" => {
                let inner;
                bracketed!(inner in input);
                let types = Punctuated::<Type, Token![,]>::parse_terminated(&inner)?;
                self.types = Some(types.into_iter().collect());
            }
            "crate" => self.krate = Some(input.parse()?),
            _ => self.set_expr(key, input.parse()?)?,
        }
        Ok(())
    }

    /// Read an option whose value is an expression.
    fn set_expr(&mut self, key: &Ident, value: Expr) -> syn::Result<()> {
        let counter = |kind: &str| {
            let kind = Ident::new(kind, key.span());
            quote!(__p::#kind::new(#value))
        };
        match key.to_string().as_str() {
            "name" => self.name = Some(value),
            "args" => self.args = Some(value),
            "consts" => self.consts = Some(value),
            "ignore" => self.ignore = Some(value),
            "items_count" => self.counters.push(counter("ItemsCount")),
            "bytes_count" => self.counters.push(counter("BytesCount")),
            "chars_count" => self.counters.push(counter("CharsCount")),
            "counters" => match &value {
                Expr::Array(a) => self.counters.extend(a.elems.iter().map(|e| quote!(#e))),
                _ => self.counters.push(quote!(#value)),
            },
            other if IGNORED.contains(&other) => self.ignored.push(other.into()),
            other => {
                let why = format!(
                    "unknown option `{other}`: the options are name, args, consts, types, \
                     counters, items_count, bytes_count, chars_count, ignore, crate, and \
                     (accepted and ignored: Picollo's runner sets the time) {}",
                    IGNORED.join(", ")
                );
                return Err(syn::Error::new(key.span(), why));
            }
        }
        Ok(())
    }

    /// Refuse the options that make no sense on a module.
    pub fn for_group(&self) -> syn::Result<()> {
        let given = [
            ("args", self.args.is_some()),
            ("consts", self.consts.is_some()),
            ("types", self.types.is_some()),
        ];
        match given.iter().find(|(_, set)| *set) {
            Some((name, _)) => Err(syn::Error::new(
                proc_macro2::Span::call_site(),
                format!("#[divan::bench_group] takes no `{name}`: give it to each #[divan::bench]"),
            )),
            None => Ok(()),
        }
    }

    /// The path of the runtime crate (`::divan`, or what `crate = ...` says).
    pub fn krate(&self) -> TokenStream {
        match &self.krate {
            Some(path) => quote!(#path),
            None => quote!(::divan),
        }
    }

    /// The names of the options given that are ignored, as a `&[&str]` expression.
    pub fn ignored_options(&self) -> TokenStream {
        let names = &self.ignored;
        quote!(&[#(#names),*])
    }

    /// Whether the entry is ignored: the option, else `#[ignore]` on the item.
    pub fn ignore(&self, attribute: bool) -> TokenStream {
        match (&self.ignore, attribute) {
            (Some(e), _) => quote!(#e),
            (None, a) => quote!(#a),
        }
    }
}
