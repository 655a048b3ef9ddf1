//! The attributes of `picollo-divan`: `#[bench]` and `#[bench_group]`, divan's spelling.
//!
//! Each attribute leaves its item as written and adds a function pointer to the ELF
//! `.init_array` section, which the loader calls before `main`: the function hands the
//! entry (its module path, name, options and how to make its benchmarks) to the runtime
//! crate's registry, which `divan::main()` reads. No list is written by hand, and no
//! crate beyond `syn` and `quote` is needed.

mod options;

use proc_macro::TokenStream;
use proc_macro2::TokenStream as Tokens;
use quote::{quote, ToTokens};
use syn::{parse_macro_input, Expr, FnArg, GenericParam, ItemFn, ItemMod, Type};

use options::Options;

/// Register a function as a benchmark, as divan's `#[divan::bench]` does.
#[proc_macro_attribute]
pub fn bench(attr: TokenStream, item: TokenStream) -> TokenStream {
    let options = parse_macro_input!(attr as Options);
    let mut func = parse_macro_input!(item as ItemFn);
    let ignored = take_ignore(&mut func.attrs);
    let added = expand_bench(&options, &func, ignored).unwrap_or_else(|e| e.to_compile_error());
    quote!(#func #added).into()
}

/// Name a module's benchmarks after it (and set its options), as divan's
/// `#[divan::bench_group]` does.
#[proc_macro_attribute]
pub fn bench_group(attr: TokenStream, item: TokenStream) -> TokenStream {
    let options = parse_macro_input!(attr as Options);
    let mut module = parse_macro_input!(item as ItemMod);
    let ignored = take_ignore(&mut module.attrs);
    if let Err(e) = options.for_group() {
        let e = e.to_compile_error();
        return quote!(#module #e).into();
    }
    let krate = options.krate();
    let raw = module.ident.unraw().to_string();
    let name = options.name.as_ref().map_or(quote!(#raw), |e| quote!(#e));
    let ignore = options.ignore(ignored);
    let ignored_options = options.ignored_options();
    let register = pre_main(quote! {
        #krate::__private::register_group(#krate::__private::GroupEntry {
            module_path: ::core::concat!(::core::module_path!(), "::", #raw),
            name: #name,
            ignore: #ignore,
            ignored_options: #ignored_options,
        });
    });
    quote!(#module #register).into()
}

/// Remove `#[ignore]` from `attrs` (it means nothing outside a test): whether it was there.
fn take_ignore(attrs: &mut Vec<syn::Attribute>) -> bool {
    let before = attrs.len();
    attrs.retain(|a| !a.path().is_ident("ignore"));
    attrs.len() != before
}

/// `body` run before `main`, through a function pointer in `.init_array`.
fn pre_main(body: Tokens) -> Tokens {
    quote! {
        const _: () = {
            #[used]
            #[unsafe(link_section = ".init_array")]
            static __PICOLLO_DIVAN_REGISTER: extern "C" fn() = __picollo_divan_register;
            extern "C" fn __picollo_divan_register() {
                #body
            }
        };
    }
}

trait Unraw {
    fn unraw(&self) -> syn::Ident;
}

impl Unraw for syn::Ident {
    fn unraw(&self) -> syn::Ident {
        syn::ext::IdentExt::unraw(self)
    }
}

/// The registration of benchmark function `func`.
fn expand_bench(options: &Options, func: &ItemFn, ignored: bool) -> syn::Result<Tokens> {
    let krate = options.krate();
    let raw = func.sig.ident.unraw().to_string();
    let name = options.name.as_ref().map_or(quote!(#raw), |e| quote!(#e));
    let ignore = options.ignore(ignored);
    let instances = instances(options, func)?;
    let ignored_options = options.ignored_options();
    let register = pre_main(quote! {
        #krate::__private::register_bench(#krate::__private::BenchEntry {
            module_path: ::core::module_path!(),
            name: #name,
            ignore: #ignore,
            ignored_options: #ignored_options,
            instances: __picollo_divan_instances,
        });
    });
    Ok(quote! {
        const _: () = {
            #[allow(unused_imports)]
            use #krate::__private::{self as __p, DebugArgName as _};
            fn __picollo_divan_instances() -> ::std::vec::Vec<__p::Instance> {
                let mut __all = ::std::vec::Vec::new();
                #instances
                __all
            }
            #register
        };
    })
}

/// The parameters of `func` after its bencher: the types, each a `&T` without its lifetime.
fn params(func: &ItemFn) -> syn::Result<Vec<Type>> {
    let each = func.sig.inputs.iter().map(|a| match a {
        FnArg::Typed(t) => Ok(without_lifetime(&t.ty)),
        FnArg::Receiver(r) => Err(syn::Error::new_spanned(
            r,
            "a benchmark is a free function: no `self`",
        )),
    });
    each.collect()
}

fn without_lifetime(ty: &Type) -> Type {
    match ty {
        Type::Reference(r) if r.lifetime.is_some() => {
            let mut r = r.clone();
            r.lifetime = None;
            Type::Reference(r)
        }
        _ => ty.clone(),
    }
}

/// Code that pushes every benchmark of `func` onto `__all`: one per combination of its
/// `types`, its `consts` and its `args`, in that order.
fn instances(options: &Options, func: &ItemFn) -> syn::Result<Tokens> {
    let params = params(func)?;
    let generics = Generics::of(options, func)?;
    let consts_item = generics.consts_item();
    let args_item = options.args.as_ref().map(|args| {
        quote! {
            let __args: &'static [_] = ::std::boxed::Box::leak(
                ::std::iter::IntoIterator::into_iter(#args)
                    .collect::<::std::vec::Vec<_>>()
                    .into_boxed_slice(),
            );
        }
    });
    let counters = &options.counters;
    let pushes = generics.each(|path, names| {
        let run = runner(&func.sig.ident, path, &params, options.args.as_ref())?;
        Ok(push(names, run, counters, options.args.is_some()))
    })?;
    Ok(quote!(#consts_item #args_item #(#pushes)*))
}

/// How one instance runs, given a bencher `__b` (and, with `args`, an argument `__a`).
fn runner(
    ident: &syn::Ident,
    generic: Tokens,
    params: &[Type],
    args: Option<&Expr>,
) -> syn::Result<Tokens> {
    let f = quote!(#ident #generic);
    match (params, args) {
        ([], None) => Ok(quote!(__b.bench(#f))),
        ([_], None) => Ok(quote!(#f(__b))),
        ([p], Some(_)) => Ok(quote!(__b.bench(|| #f(__p::ArgOf::<#p>::arg(__a))))),
        ([_, p], Some(_)) => Ok(quote!(#f(__b, __p::ArgOf::<#p>::arg(__a)))),
        ([], Some(args)) => Err(syn::Error::new_spanned(
            args,
            "`args` needs the function to take one: `fn f(arg: T)` or \
             `fn f(bencher: divan::Bencher, arg: T)`",
        )),
        ([_, p, ..], None) => Err(syn::Error::new_spanned(
            p,
            format!(
                "expected the `args` option for the parameter `{}`",
                p.to_token_stream()
            ),
        )),
        (_, Some(args)) => Err(syn::Error::new_spanned(
            args,
            "a benchmark takes at most a `divan::Bencher` and one argument",
        )),
    }
}

/// The push of one instance named by `names` (its generics' names) that runs `run`.
fn push(names: Tokens, run: Tokens, counters: &[Tokens], args: bool) -> Tokens {
    let instance = |names: Tokens| {
        quote! {
            __all.push(__p::Instance {
                path: #names,
                run: ::std::boxed::Box::new(move |__b: __p::Bencher<'_, '_>| {
                    let __b = __b #(.counter(#counters))*;
                    #run
                }),
            });
        }
    };
    match args {
        false => instance(quote!(::std::vec![#names])),
        true => {
            let each = instance(quote!(::std::vec![#names __p::ArgName(__a).arg_name()]));
            quote!(for __a in __args.iter() { #each })
        }
    }
}

/// A benchmark's generic parameters and the values `types` and `consts` give them.
struct Generics {
    /// Each parameter in order: `true` for the type, `false` for the constant.
    order: Vec<bool>,
    types: Option<Vec<Type>>,
    /// The constants' expression and type, and how many instances they make.
    consts: Option<(Expr, Type, usize)>,
}

/// The most instances a `consts` that is not an array literal makes (its length is not
/// known to the macro).
const MAX_CONSTS: usize = 20;

impl Generics {
    fn of(options: &Options, func: &ItemFn) -> syn::Result<Generics> {
        let mut order = Vec::new();
        let mut const_ty = None;
        for p in &func.sig.generics.params {
            match p {
                GenericParam::Type(_) => order.push(true),
                GenericParam::Const(c) => {
                    order.push(false);
                    const_ty = Some(c.ty.clone());
                }
                GenericParam::Lifetime(_) => {}
            }
        }
        let wants = |ty: bool| order.contains(&ty);
        let span = &func.sig.ident;
        let err = |why: &str| Err(syn::Error::new_spanned(span, why));
        match (wants(true), options.types.is_some()) {
            (true, false) => return err("a generic type parameter needs `types = [...]`"),
            (false, true) => return err("`types` needs a generic type parameter `<T>`"),
            _ => {}
        }
        match (wants(false), options.consts.is_some()) {
            (true, false) => return err("a const parameter needs `consts = [...]`"),
            (false, true) => return err("`consts` needs a const parameter `<const N: usize>`"),
            _ => {}
        }
        let consts = options.consts.clone().zip(const_ty).map(|(e, ty)| {
            let n = match &e {
                Expr::Array(a) => a.elems.len(),
                _ => MAX_CONSTS,
            };
            (e, ty, n)
        });
        let types = options.types.clone();
        Ok(Generics {
            order,
            types,
            consts,
        })
    }

    /// The constants as an item the instances index.
    fn consts_item(&self) -> Tokens {
        match &self.consts {
            Some((e, ty, _)) => quote!(const __CONSTS: &[#ty] = &#e;),
            None => Tokens::new(),
        }
    }

    /// `make(turbofish, names)` for each combination of the generics.
    fn each(
        &self,
        mut make: impl FnMut(Tokens, Tokens) -> syn::Result<Tokens>,
    ) -> syn::Result<Vec<Tokens>> {
        let types: Vec<Option<&Type>> = match &self.types {
            Some(t) => t.iter().map(Some).collect(),
            None => vec![None],
        };
        let consts: Vec<Option<usize>> = match &self.consts {
            Some((_, _, n)) => (0..*n).map(Some).collect(),
            None => vec![None],
        };
        let mut all = Vec::new();
        for ty in &types {
            for i in &consts {
                let made = make(self.turbofish(*ty, *i), names(*ty, *i))?;
                all.push(match i {
                    Some(i) => quote!(if #i < __CONSTS.len() { #made }),
                    None => made,
                });
            }
        }
        Ok(all)
    }

    /// `::<T, { __CONSTS[i] }>` in the function's order of parameters (nothing if none).
    fn turbofish(&self, ty: Option<&Type>, i: Option<usize>) -> Tokens {
        if self.order.is_empty() {
            return Tokens::new();
        }
        let value = i.map(|i| quote!({ __CONSTS[if #i < __CONSTS.len() { #i } else { 0 }] }));
        let each = self.order.iter().map(|&is_type| match is_type {
            true => ty.to_token_stream(),
            false => value.clone().unwrap_or_default(),
        });
        quote!(::<#(#each),*>)
    }
}

/// The names an instance's generics add to its path: the type's, then the constant's.
fn names(ty: Option<&Type>, i: Option<usize>) -> Tokens {
    let ty = ty.map(|t| quote!(__p::type_name::<#t>(),));
    let i = i.map(
        |i| quote!(__p::ArgName(&__CONSTS[if #i < __CONSTS.len() { #i } else { 0 }]).arg_name(),),
    );
    quote!(#ty #i)
}
