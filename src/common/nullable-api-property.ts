import { ApiProperty } from '@nestjs/swagger';

/** OpenAPI properties that are always present and may be null, as the answers' DTOs declare most of theirs. */
export const nullableString = (description: string, example?: unknown) => ApiProperty({ type: String, nullable: true, description, example });
export const nullableNumber = (description: string, example?: unknown) => ApiProperty({ type: Number, nullable: true, description, example });
export const nullableDate = (description: string, example: string | null) =>
  ApiProperty({ type: String, nullable: true, format: 'date', description, example });
export const nullableBoolean = (description: string, example: boolean) => ApiProperty({ type: Boolean, nullable: true, description, example });
