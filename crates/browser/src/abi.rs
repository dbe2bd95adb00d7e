//! The module's exports, as the worker (`engine.js`) calls them: bytes in
//! through two buffers the module owns, one call, bytes out through a
//! third. Strings cross as UTF-8, so no binding generator is needed
//! (wasm-bindgen's glue would add a build tool that must match its crate's
//! version exactly, for an interface of three buffers).
//!
//! 1. `input(n)` makes room for an `n`-byte request and gives its address;
//!    `blob(n)` the same for bytes that go with it (a weights file).
//! 2. `call()` answers the request ([`crate::handle`]) and gives the
//!    answer's length; `output()` its address. Both buffers stay valid
//!    until the next call.
//!
//! During an analysis the module calls the worker's `env.progress(done,
//! total)`. Nothing else is imported: no clock, no randomness (the seed
//! comes in the request).
//!
//! Only the exports' `#[no_mangle]` needs `unsafe_code`; no pointer is
//! dereferenced here, as the buffers are `Vec`s the module owns.

use std::cell::RefCell;

thread_local! {
    static INPUT: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
    static BLOB: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
    static OUTPUT: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
}

/// Room for `len` bytes in `buffer`, zeroed; its address.
fn room(buffer: &'static std::thread::LocalKey<RefCell<Vec<u8>>>, len: usize) -> *mut u8 {
    buffer.with(|b| {
        let mut b = b.borrow_mut();
        b.clear();
        b.resize(len, 0);
        b.as_mut_ptr()
    })
}

/// Room for a request of `len` bytes; its address.
#[allow(unsafe_code)]
#[no_mangle]
pub extern "C" fn input(len: usize) -> *mut u8 {
    room(&INPUT, len)
}

/// Room for `len` bytes that go with the next request; its address.
#[allow(unsafe_code)]
#[no_mangle]
pub extern "C" fn blob(len: usize) -> *mut u8 {
    room(&BLOB, len)
}

/// Answers the request in the input buffer; the answer's length. The
/// blob is emptied: it goes with one request only.
#[allow(unsafe_code)]
#[no_mangle]
pub extern "C" fn call() -> usize {
    let request = INPUT.with(|b| std::mem::take(&mut *b.borrow_mut()));
    let blob = BLOB.with(|b| std::mem::take(&mut *b.borrow_mut()));
    let text = match std::str::from_utf8(&request) {
        Ok(text) => crate::handle(text, &blob, &mut report),
        Err(_) => {
            r#"{"error":{"code":"bad_request","message":"the request is not UTF-8"}}"#.to_string()
        }
    };
    OUTPUT.with(|b| {
        let mut b = b.borrow_mut();
        *b = text.into_bytes();
        b.len()
    })
}

/// The address of the last answer.
#[allow(unsafe_code)]
#[no_mangle]
pub extern "C" fn output() -> *const u8 {
    OUTPUT.with(|b| b.borrow().as_ptr())
}

#[cfg(target_arch = "wasm32")]
#[link(wasm_import_module = "env")]
extern "C" {
    fn progress(done: u32, total: u32);
}

/// Tells the worker how far an analysis has got.
#[cfg(target_arch = "wasm32")]
fn report(done: usize, total: usize) {
    // The import takes two numbers and returns nothing; it cannot break
    // the module's memory.
    #[allow(unsafe_code)]
    unsafe {
        progress(done as u32, total as u32)
    }
}

#[cfg(not(target_arch = "wasm32"))]
fn report(_done: usize, _total: usize) {}
