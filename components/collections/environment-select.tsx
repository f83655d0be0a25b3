"use client";

import type { SelectHTMLAttributes } from "react";
import { Select } from "@/components/ui/field";
import { useEnvironments } from "@/lib/domains/collections/hooks";

/** The workspace's environments by name, or none: for a run and for a monitor. */
export function EnvironmentSelect({ value, onPick, ...rest }: Omit<SelectHTMLAttributes<HTMLSelectElement>, "value" | "onChange" | "children"> & { value: string; onPick: (name: string) => void }) {
  const environments = useEnvironments();
  return (
    <Select {...rest} value={value} onChange={(e) => onPick(e.target.value)}>
      <option value="">None</option>
      {environments.data?.map((env) => (
        <option key={env.id} value={env.name}>
          {env.name}
        </option>
      ))}
    </Select>
  );
}
