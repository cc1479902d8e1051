//! The exported functions (see the crate docs): raw pointers into the module's memory, which
//! exist only on wasm32 (a `u32` addresses all of it).

use std::alloc::{alloc, dealloc, Layout};
use std::sync::Mutex;

/// The last result of `gc_check` (or of the check a fault stopped).
static RESULT: Mutex<Vec<u8>> = Mutex::new(Vec::new());

/// The panic message of a fault: written by the panic hook without allocating, so that it is
/// there even when the trap follows at once.
const FAULT_ROOM: usize = 4096;
struct Fault {
    bytes: [u8; FAULT_ROOM],
    len: usize,
}
static FAULT: Mutex<Fault> = Mutex::new(Fault { bytes: [0; FAULT_ROOM], len: 0 });

impl std::fmt::Write for Fault {
    fn write_str(&mut self, text: &str) -> std::fmt::Result {
        // Whole characters only, so that the message stays UTF-8 when it is cut.
        for ch in text.chars() {
            let mut buf = [0u8; 4];
            let bytes = ch.encode_utf8(&mut buf).as_bytes();
            if self.len + bytes.len() > FAULT_ROOM {
                return Err(std::fmt::Error);
            }
            self.bytes[self.len..self.len + bytes.len()].copy_from_slice(bytes);
            self.len += bytes.len();
        }
        Ok(())
    }
}

/// Records a panic: its message first (nothing allocated), then, when it stopped a check, the
/// check's rejection as the result.
fn hook(info: &std::panic::PanicHookInfo) {
    if let Ok(mut fault) = FAULT.try_lock() {
        fault.len = 0;
        let message = info.payload_as_str().unwrap_or("a panic without a message");
        let _ = std::fmt::Write::write_str(&mut *fault, message);
    }
    let message = match FAULT.try_lock() {
        Ok(fault) => String::from_utf8_lossy(&fault.bytes[..fault.len]).into_owned(),
        Err(_) => return,
    };
    if let (Some(result), Ok(mut stored)) = (crate::fault_result(&message), RESULT.try_lock()) {
        *stored = result.into_bytes();
    }
}

fn layout(len: u32) -> Option<Layout> {
    Layout::from_size_align(usize::try_from(len).ok()?.max(1), 1).ok()
}

/// `len` fresh bytes, or 0.
#[no_mangle]
pub extern "C" fn gc_alloc(len: u32) -> u32 {
    match layout(len) {
        // SAFETY: the layout's size is at least 1.
        Some(layout) => unsafe { alloc(layout) as u32 },
        None => 0,
    }
}

/// Gives back what `gc_alloc(len)` returned.
///
/// # Safety
/// `ptr` came from `gc_alloc(len)` and is not used again.
#[no_mangle]
pub unsafe extern "C" fn gc_free(ptr: u32, len: u32) {
    if let (Some(layout), false) = (layout(len), ptr == 0) {
        // SAFETY: as the caller promises, allocated by gc_alloc with this layout.
        unsafe { dealloc(ptr as *mut u8, layout) }
    }
}

/// Installs the secret seed of the checker's fingerprints (see the crate docs).
#[no_mangle]
pub extern "C" fn gc_seed(a: u32, b: u32, c: u32, d: u32) {
    let word = |hi: u32, lo: u32| u64::from(hi) << 32 | u64::from(lo);
    gamecert_certificates::base::fingerprint::install_seed(word(a, b), word(c, d));
}

/// The bytes at `ptr`, `len` of them, copied.
///
/// # Safety
/// `ptr..ptr + len` is memory the caller wrote (or `len` is 0).
unsafe fn bytes(ptr: u32, len: u32) -> Vec<u8> {
    if len == 0 {
        return Vec::new();
    }
    // SAFETY: as the caller promises.
    unsafe { std::slice::from_raw_parts(ptr as *const u8, len as usize) }.to_vec()
}

/// Checks a certificate against an instance (see the crate docs).
///
/// # Safety
/// Each pointer and length is a buffer the caller wrote (names in UTF-8).
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn gc_check(
    inst_name_ptr: u32,
    inst_name_len: u32,
    inst_ptr: u32,
    inst_len: u32,
    cert_name_ptr: u32,
    cert_name_len: u32,
    cert_ptr: u32,
    cert_len: u32,
    max_work: f64,
    json: u32,
) -> u32 {
    static HOOK: std::sync::Once = std::sync::Once::new();
    HOOK.call_once(|| std::panic::set_hook(Box::new(hook)));
    if let Ok(mut fault) = FAULT.lock() {
        fault.len = 0;
    }
    if let Ok(mut result) = RESULT.lock() {
        *result = Vec::new();
    }
    // SAFETY: as the caller promises.
    let (inst_name, inst, cert_name, cert) = unsafe {
        (
            bytes(inst_name_ptr, inst_name_len),
            bytes(inst_ptr, inst_len),
            bytes(cert_name_ptr, cert_name_len),
            bytes(cert_ptr, cert_len),
        )
    };
    let (inst_name, cert_name) = (
        String::from_utf8_lossy(&inst_name).into_owned(),
        String::from_utf8_lossy(&cert_name).into_owned(),
    );
    let result = crate::check_bytes((&inst_name, inst), (&cert_name, cert), max_work, json != 0);
    let mut stored = RESULT.lock().unwrap_or_else(|e| e.into_inner());
    *stored = result.into_bytes();
    stored.len() as u32
}

/// Where the last result starts.
#[no_mangle]
pub extern "C" fn gc_result_ptr() -> u32 {
    RESULT.try_lock().map_or(0, |result| result.as_ptr() as u32)
}

/// The last result's length: what `gc_check` returned, or a faulted check's result.
#[no_mangle]
pub extern "C" fn gc_result_len() -> u32 {
    RESULT.try_lock().map_or(0, |result| result.len() as u32)
}

/// Where the last fault's message starts.
#[no_mangle]
pub extern "C" fn gc_fault_ptr() -> u32 {
    FAULT.try_lock().map_or(0, |fault| fault.bytes.as_ptr() as u32)
}

/// The last fault's message's length (0: no fault since the last `gc_check` began).
#[no_mangle]
pub extern "C" fn gc_fault_len() -> u32 {
    FAULT.try_lock().map_or(0, |fault| fault.len as u32)
}
