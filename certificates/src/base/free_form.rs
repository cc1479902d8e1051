//! [`FreeForm`]: a free-form JSON value the checker never reads (provenance), read and checked
//! as `serde_json::Value` reads it, without being kept.

use serde::de::{Deserialize, Deserializer, Error, MapAccess, SeqAccess, Visitor};
use std::fmt;

/// Any JSON value, accepted exactly when `serde_json::Value` accepts it (numbers in range, any
/// keys, a repeated key too) and then dropped: a large free-form field costs no memory.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FreeForm;

impl<'de> Deserialize<'de> for FreeForm {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<FreeForm, D::Error> {
        d.deserialize_any(FreeForm)
    }
}

impl<'de> Visitor<'de> for FreeForm {
    type Value = FreeForm;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any valid JSON value")
    }
    fn visit_bool<E: Error>(self, _: bool) -> Result<FreeForm, E> {
        Ok(FreeForm)
    }
    fn visit_i64<E: Error>(self, _: i64) -> Result<FreeForm, E> {
        Ok(FreeForm)
    }
    fn visit_u64<E: Error>(self, _: u64) -> Result<FreeForm, E> {
        Ok(FreeForm)
    }
    fn visit_f64<E: Error>(self, _: f64) -> Result<FreeForm, E> {
        Ok(FreeForm)
    }
    fn visit_str<E: Error>(self, _: &str) -> Result<FreeForm, E> {
        Ok(FreeForm)
    }
    fn visit_unit<E: Error>(self) -> Result<FreeForm, E> {
        Ok(FreeForm)
    }
    fn visit_none<E: Error>(self) -> Result<FreeForm, E> {
        Ok(FreeForm)
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<FreeForm, D::Error> {
        FreeForm::deserialize(d)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<FreeForm, A::Error> {
        while seq.next_element::<FreeForm>()?.is_some() {}
        Ok(FreeForm)
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<FreeForm, A::Error> {
        // Keys as `Value`'s map reads them: strings.
        while map.next_key::<std::borrow::Cow<'de, str>>()?.is_some() {
            map.next_value::<FreeForm>()?;
        }
        Ok(FreeForm)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accepts_and_refuses_what_value_does() {
        let cases = [
            "null",
            "true",
            "-3",
            "18446744073709551615",
            "1e300",
            "1e400",
            "-1.5e-400",
            "\"a\\u0041\"",
            "\"\\ud800\"",
            "\"\\q\"",
            "[1, [2, {\"a\": []}]]",
            "{\"a\": 1, \"a\": 2}",
            "{\"a\": 1,}",
            "[1,]",
            "{1: 2}",
            "[",
            "01",
            "NaN",
        ];
        for text in cases {
            let value = serde_json::from_str::<serde_json::Value>(text).map(drop);
            let free = serde_json::from_str::<FreeForm>(text).map(drop);
            assert_eq!(value.map_err(|e| e.to_string()), free.map_err(|e| e.to_string()), "{text}");
        }
    }
}
